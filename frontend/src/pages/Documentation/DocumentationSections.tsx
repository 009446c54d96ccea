import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { Code, CodeBlock } from './CodeBlock';
import { DocSection, Paragraph } from './DocSection';
import {
  AUTH_FIELDS,
  AUTH_TYPES,
  FIELD_TYPES,
  OPERATION_FIELDS,
  PAGINATION_FIELDS,
  PAGINATION_TYPES,
  SCHEMA_FIELD_KEYS,
  TOP_LEVEL_FIELDS,
  UNSUPPORTED,
} from './dsl-reference';
import { EXAMPLE_SPEC_JSON } from './example-spec';
import { FieldTable } from './FieldTable';

export const SECTIONS = [
  { id: 'spec-format', title: 'Spec format' },
  { id: 'authentication', title: 'Authentication' },
  { id: 'operations', title: 'Operations' },
  { id: 'fields', title: 'Fields' },
  { id: 'pagination', title: 'Pagination' },
  { id: 'response-path', title: 'Response path' },
  { id: 'example', title: 'Complete example' },
  { id: 'not-supported', title: 'Not supported' },
] as const;

export function DocumentationSections() {
  return (
    <>
      <DocSection id="spec-format" title="Spec format">
        <Paragraph>
          A connector is a JSON document uploaded under Upload &amp; Create → Upload Connector. It describes a
          REST API: where it lives, how to sign in, which requests to make and which settings a user fills in.
          Anywhere a string is a template, <Code>{'{{key}}'}</Code> is replaced by the value of that setting (
          <Code>{'{{group.key}}'}</Code> for a field inside a group); values in URLs are URL-encoded, arrays
          are comma-joined.
        </Paragraph>
        <FieldTable caption="Top-level fields" rows={TOP_LEVEL_FIELDS} />
      </DocSection>
      <DocSection id="authentication" title="Authentication">
        <Paragraph>
          The <Code>auth</Code> object tells the engine how to add credentials to every request. Users enter
          the credentials once when they connect; they are kept encrypted and apart from the visible settings.
        </Paragraph>
        <FieldTable caption="Auth fields" rows={AUTH_FIELDS} />
        <FieldTable caption="Auth types" firstColumn="Auth type" rows={AUTH_TYPES} />
      </DocSection>
      <DocSection id="operations" title="Operations">
        <Paragraph>
          Each operation is one request sequence whose records land in the connector's table.
        </Paragraph>
        <FieldTable caption="Operation fields" rows={OPERATION_FIELDS} />
      </DocSection>
      <DocSection id="fields" title="Fields">
        <Paragraph>
          Fields (top-level <Code>fields</Code> and each operation's <Code>params_fields</Code>) become the
          setup form. Values are saved as the connector instance's settings and fill the templates.
        </Paragraph>
        <FieldTable caption="Schema field keys" rows={SCHEMA_FIELD_KEYS} />
        <FieldTable caption="Field types" firstColumn="Field type" rows={FIELD_TYPES} />
      </DocSection>
      <DocSection id="pagination" title="Pagination">
        <Paragraph>
          A run keeps requesting pages until a page comes back empty, a page is shorter than{' '}
          <Code>page_size</Code>, the total at <Code>total_path</Code> is reached, no next cursor is given, or{' '}
          <Code>max_pages</Code> is hit.
        </Paragraph>
        <FieldTable caption="Pagination strategies" firstColumn="Strategy" rows={PAGINATION_TYPES} />
        <FieldTable caption="Pagination fields" rows={PAGINATION_FIELDS} />
      </DocSection>
      <DocSection id="response-path" title="Response path">
        <Paragraph>
          <Code>response_path</Code> is a dotted path to the records in the JSON response, with array indices
          as <Code>items[0]</Code> or <Code>items.0</Code>; a leading <Code>$.</Code> is allowed. Without it
          the whole response is used. An array gives one row per element, a single object one row. Top-level
          keys of each record become columns; nested values are stored as JSON.
        </Paragraph>
        <CodeBlock
          label="Response path example"
          code={
            '// response\n{ "data": { "observations": [ { "time": "…", "temp": 21.5 } ] } }\n\n// spec\n"response_path": "data.observations"'
          }
        />
      </DocSection>
      <DocSection id="example" title="Complete example">
        <CodeBlock label="Complete connector spec" code={EXAMPLE_SPEC_JSON} />
      </DocSection>
      <DocSection id="not-supported" title="Not supported">
        <List>
          {UNSUPPORTED.map((item) => (
            <ListItem key={item.name} disableGutters>
              <ListItemText primary={item.name} secondary={item.text} />
            </ListItem>
          ))}
        </List>
      </DocSection>
    </>
  );
}
