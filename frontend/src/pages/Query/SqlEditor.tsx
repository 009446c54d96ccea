import { closeCompletion, CompletionContext } from '@codemirror/autocomplete';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import Box from '@mui/material/Box';
import CodeMirror, { EditorView, keymap, Prec, tooltips } from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { bareColumnCompletion } from '../../features/query/statementColumns';

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd-Enter, with the editor's text; keep it stable (the key binding is made with it). */
  onRun: (sql: string) => void;
  /** Table name → column names, for completion. */
  schema: Record<string, string[]>;
}

/**
 * CodeMirror 6 with PostgreSQL highlighting, completion of the caller's tables and columns (a bare
 * word offers the columns of the tables the statement reads), and Ctrl/Cmd-Enter to run.
 */
export function SqlEditor({ value, onChange, onRun, schema }: Props) {
  const extensions = useMemo(
    () => [
      sql({ dialect: PostgreSQL, schema, upperCaseKeywords: true }),
      PostgreSQL.language.data.of({
        autocomplete: (context: CompletionContext) =>
          bareColumnCompletion(context.state.doc.toString(), context.pos, schema, context.explicit),
      }),
      // The completion list stays inside the editor: on a phone it would reach past the screen.
      tooltips({ tooltipSpace: (view) => view.dom.getBoundingClientRect() }),
      Prec.highest(
        keymap.of([
          {
            key: 'Mod-Enter',
            run: (view) => {
              // The query runs: a list still offering words would cover its result.
              closeCompletion(view);
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
        // No wider than the editor (the page's side margins are 16 px each on a phone): long
        // column names are cut rather than pushing the list past the screen.
        '& .cm-tooltip-autocomplete > ul': { maxWidth: 'min(700px, calc(100vw - 32px))' },
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
