import { PostgreSQL, sql } from '@codemirror/lang-sql';
import Box from '@mui/material/Box';
import CodeMirror, { EditorView, keymap, Prec } from '@uiw/react-codemirror';
import { useMemo } from 'react';

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd-Enter, with the editor's text; keep it stable (the key binding is made with it). */
  onRun: (sql: string) => void;
  /** Table name → column names, for completion. */
  schema: Record<string, string[]>;
}

/** CodeMirror 6 with PostgreSQL highlighting, completion of the caller's tables and columns, and Ctrl/Cmd-Enter to run. */
export function SqlEditor({ value, onChange, onRun, schema }: Props) {
  const extensions = useMemo(
    () => [
      sql({ dialect: PostgreSQL, schema, upperCaseKeywords: true }),
      Prec.highest(
        keymap.of([
          {
            key: 'Mod-Enter',
            run: (view) => {
              onRun(view.state.doc.toString());
              return true;
            },
          },
        ]),
      ),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': 'SQL' }),
    ],
    [schema, onRun],
  );
  return (
    <Box
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
        '& .cm-editor': { fontSize: 14 },
        '& .cm-editor.cm-focused': { outline: 'none' },
      }}
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        minHeight="160px"
        maxHeight="360px"
        basicSetup={{ foldGutter: false, highlightActiveLine: false }}
      />
    </Box>
  );
}
