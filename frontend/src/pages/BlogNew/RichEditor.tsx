/**
 * The TinyMCE editor, self-hosted: everything below is bundled into this lazily loaded chunk, so
 * no script or stylesheet comes from a CDN and the editor runs under the app's CSP (script-src 'self').
 */
import { Editor } from '@tinymce/tinymce-react';
// The global `tinymce` must exist before the theme, model, icons, skins and plugins register with it.
import 'tinymce/tinymce';
import 'tinymce/models/dom/model';
import 'tinymce/themes/silver';
import 'tinymce/icons/default';
import 'tinymce/skins/ui/oxide/skin.js';
import 'tinymce/skins/ui/oxide/content.js';
import 'tinymce/skins/content/default/content.js';
import 'tinymce/plugins/autolink';
import 'tinymce/plugins/code';
import 'tinymce/plugins/image';
import 'tinymce/plugins/link';
import 'tinymce/plugins/lists';
import 'tinymce/plugins/table';

export interface RichEditorProps {
  value: string;
  onChange: (html: string) => void;
  /** Accessible name of the editing area. */
  label: string;
  height: number;
}

export function RichEditor({ value, onChange, label, height }: RichEditorProps) {
  return (
    <Editor
      licenseKey="gpl"
      value={value}
      onEditorChange={(html) => onChange(html)}
      init={{
        height,
        menubar: false,
        branding: false,
        promotion: false,
        plugins: 'autolink code image link lists table',
        toolbar:
          'undo redo | blocks | bold italic underline | bullist numlist | link image table | removeformat | code',
        iframe_aria_text: label,
        convert_urls: false,
      }}
    />
  );
}

export default RichEditor;
