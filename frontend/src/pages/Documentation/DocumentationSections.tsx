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
import { CHOOSE_STREAMS, exampleText, FEATURE_EXAMPLES } from './dsl-examples';
import { REQUEST_OPTIONS, RESPONSE_FILTER_FIELDS } from './dsl-reference-requests';
import {
  DATE_FUNCTIONS,
  FORMAT_EXAMPLE,
  FORMAT_FIELDS,
  INCREMENTAL_EXAMPLE,
  INCREMENTAL_FIELDS,
  RECORD_FIELDS,
  RECORDS_EXAMPLE,
} from './dsl-reference-records';
import { EXAMPLE_SPEC_JSON } from './example-spec';
import { FieldTable } from './FieldTable';

export const SECTIONS = [
  { id: 'spec-format', title: 'Spec format' },
  { id: 'authentication', title: 'Authentication' },
  { id: 'operations', title: 'Operations' },
  { id: 'streams', title: 'Streams' },
  { id: 'fields', title: 'Fields' },
  { id: 'pagination', title: 'Pagination' },
  { id: 'errors', title: 'Errors and limits' },
  { id: 'response-path', title: 'Response path' },
  { id: 'records', title: 'Records: selection and shaping' },
  { id: 'formats', title: 'Response formats and values' },
  { id: 'incremental', title: 'Incremental sync' },
  { id: 'test-read', title: 'Test read' },
  { id: 'runs', title: 'Runs and settings' },
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
        <CodeBlock label="OAuth2 client credentials example" code={exampleText(FEATURE_EXAMPLES.oauth2)} />
        <CodeBlock label="OAuth2 refresh token example" code={exampleText(FEATURE_EXAMPLES.refreshToken)} />
        <CodeBlock label="Session token example" code={exampleText(FEATURE_EXAMPLES.session)} />
        <Paragraph>
          Credentials and tokens never appear in logs, run history, errors or answers; a token obtained by
          exchange is cached for the connection, encrypted like the credentials.
        </Paragraph>
      </DocSection>
      <DocSection id="operations" title="Operations">
        <Paragraph>
          Each operation is one request sequence whose records land in the connector's table.
        </Paragraph>
        <FieldTable caption="Operation fields" rows={OPERATION_FIELDS} />
        <CodeBlock label="Form-encoded POST body example" code={exampleText(FEATURE_EXAMPLES.formBody)} />
      </DocSection>
      <DocSection id="streams" title="Streams">
        <Paragraph>
          Every operation is a stream. A connection runs the first one unless its owner checks others under
          Request → Streams: each checked stream is fetched on every run into a table of its own, with its own
          preview and stream links. An operation with a <Code>parent</Code> runs once per record of its parent
          operation, the parent's <Code>field</Code> placed in the setting <Code>as</Code>; only the child's
          records are stored.
        </Paragraph>
        <CodeBlock label="Parent stream example" code={exampleText(FEATURE_EXAMPLES.parent)} />
        <Paragraph>
          Through the API, <Code>operation_ids</Code> on <Code>POST /api/connectors/activate</Code> or{' '}
          <Code>{'PATCH /api/connectors/instance/{id}'}</Code> picks the streams (<Code>operation_id</Code>{' '}
          for one):
        </Paragraph>
        <CodeBlock label="Choosing streams" code={exampleText(CHOOSE_STREAMS)} />
      </DocSection>
      <DocSection id="fields" title="Fields">
        <Paragraph>
          Fields (top-level <Code>fields</Code> and each operation's <Code>params_fields</Code>) become the
          setup form. Values are saved as the connection's settings and fill the templates.
        </Paragraph>
        <FieldTable caption="Schema field keys" rows={SCHEMA_FIELD_KEYS} />
        <FieldTable caption="Field types" firstColumn="Field type" rows={FIELD_TYPES} />
      </DocSection>
      <DocSection id="pagination" title="Pagination">
        <Paragraph>
          A run keeps requesting pages until a page comes back empty, <Code>has_more_path</Code> says false,
          the total at <Code>total_path</Code> is reached, no next cursor or link is given, or{' '}
          <Code>max_pages</Code> is hit. A page shorter than <Code>page_size</Code> ends the run only when{' '}
          <Code>stop_on_short_page</Code> is true; otherwise page and offset paging ask for the next page,
          which must be empty (rows there mean the API pages by a smaller size than asked: the run fails,
          naming the size it accepts). The run fails, rather than keep part of the data, when the API says
          more exist but gives no next cursor or link, when a cursor or next URL comes back a second time, or
          when a page starts like the one before (a page parameter the API does not read). A next URL on
          another host is refused. With <Code>inject_into: "path"</Code>, <Code>url_path</Code> must hold{' '}
          <Code>{'{{page_token}}'}</Code>.
        </Paragraph>
        <FieldTable caption="Pagination strategies" firstColumn="Strategy" rows={PAGINATION_TYPES} />
        <FieldTable caption="Pagination fields" rows={PAGINATION_FIELDS} />
        <CodeBlock label="Link header example" code={exampleText(FEATURE_EXAMPLES.linkHeader)} />
        <CodeBlock label="Next URL example" code={exampleText(FEATURE_EXAMPLES.nextUrl)} />
        <CodeBlock label="Last-record cursor example" code={exampleText(FEATURE_EXAMPLES.lastRecordCursor)} />
        <CodeBlock label="Cursor in the body example" code={exampleText(FEATURE_EXAMPLES.bodyCursor)} />
        <CodeBlock
          label="Cursor from a header, sent in a header"
          code={exampleText(FEATURE_EXAMPLES.headerCursor)}
        />
        <CodeBlock label="Page number in the path" code={exampleText(FEATURE_EXAMPLES.pathToken)} />
        <CodeBlock
          label="Total reached, or a short page when the API says so"
          code={exampleText(FEATURE_EXAMPLES.totalAndShortPage)}
        />
      </DocSection>
      <DocSection id="errors" title="Errors and limits">
        <Paragraph>
          Network errors, 429 and 5xx answers are retried with backoff; any other answer outside 2xx fails the
          run, unless a response filter of the operation says otherwise. Filters are tried in order; the first
          that matches decides.
        </Paragraph>
        <FieldTable caption="Response filter fields" rows={RESPONSE_FILTER_FIELDS} />
        <CodeBlock label="Response filters example" code={exampleText(FEATURE_EXAMPLES.filters)} />
        <FieldTable caption="Request options" rows={REQUEST_OPTIONS} />
        <CodeBlock label="Request options example" code={exampleText(FEATURE_EXAMPLES.requests)} />
        <CodeBlock label="Conditional requests example" code={exampleText(FEATURE_EXAMPLES.conditional)} />
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
      <DocSection id="records" title="Records: selection and shaping">
        <Paragraph>
          An operation's <Code>records</Code> says which values of the answer are records and how each becomes
          a row. These are the only transforms there are, applied in this order: path (with <Code>*</Code>),
          header_row, flatten_depth, add_fields, remove_fields, rename_fields, filter. Field names become
          column names with camelCase split (<Code>createdAt</Code> becomes <Code>created_at</Code>); a table
          made before keeps its existing column names.
        </Paragraph>
        <FieldTable caption="Record shaping" rows={RECORD_FIELDS} />
        <CodeBlock label="Record shaping examples" code={RECORDS_EXAMPLE} />
        <CodeBlock
          label="Header row and arrays (Google Sheets values)"
          code={exampleText(FEATURE_EXAMPLES.sheetsValues)}
        />
      </DocSection>
      <DocSection id="formats" title="Response formats and values">
        <Paragraph>
          Numbers are kept exactly: integers beyond 2^53 and long decimals land in numeric columns digit for
          digit. ISO-8601 text becomes a <Code>date</Code> column (2024-01-31) or a <Code>timestamptz</Code>{' '}
          column (2024-01-01T00:00:00Z; without a zone, UTC). A later value that does not fit widens the
          column: date and timestamp to timestamptz, any other mix to text, objects and arrays to JSON. A
          timestamp column widened to text keeps each value as fetched (2024-03-10T09:30:00+02:00 stays so).
          In CSV answers 12.50 stays 12.50, an empty field is null and a quoted empty one (&quot;&quot;) an
          empty string.
        </Paragraph>
        <FieldTable caption="Response formats" rows={FORMAT_FIELDS} />
        <CodeBlock label="Response format examples" code={FORMAT_EXAMPLE} />
      </DocSection>
      <DocSection id="incremental" title="Incremental sync">
        <Paragraph>
          An operation with <Code>incremental</Code> reads only what changed since the last committed run. The
          state (the greatest cursor value read) advances in the same transaction that makes the run's rows
          visible: a failed or interrupted run leaves it where it was. A run that <Code>max_pages</Code> or a
          limit stopped saves it only when its records came oldest first; otherwise (Stripe, Facebook list
          newest first) it keeps the previous state and its warning says the read was partial. Reset it with
          Reset State on the connector setup, or from the API (
          <Code>POST /api/connectors/instance/:id/state/reset</Code>), to read from the start again; each
          stream of an instance keeps its own state. Scheduled refreshes read incrementally too.
        </Paragraph>
        <FieldTable caption="Incremental options" rows={INCREMENTAL_FIELDS} />
        <FieldTable caption="Date functions in templates" rows={DATE_FUNCTIONS} />
        <CodeBlock label="Incremental examples" code={INCREMENTAL_EXAMPLE} />
        <CodeBlock label="RFC 2822 cursor (Twilio)" code={exampleText(FEATURE_EXAMPLES.rfc2822Cursor)} />
        <CodeBlock label="Daily windows through today" code={exampleText(FEATURE_EXAMPLES.todayWindow)} />
      </DocSection>
      <DocSection id="test-read" title="Test read">
        <Paragraph>
          Test Read (on the upload screen and the connector setup) runs the spec through the same engine,
          limits and address rules as a run, reads at most 5 pages and 100 records, and shows the requests
          (credentials hidden, status, time), the records, the columns and types a run would create, and any
          warning. It writes nothing: no table, no run, no state. The API is{' '}
          <Code>POST /api/connectors/test-read</Code> with a <Code>spec</Code>, a <Code>connector_id</Code> or
          an <Code>instance_id</Code>, plus <Code>settings</Code> and <Code>auth_data</Code>.
        </Paragraph>
      </DocSection>
      <DocSection id="runs" title="Runs and settings">
        <Paragraph>
          Settings reach the API only through templates (<Code>url_path</Code>, <Code>query</Code>,{' '}
          <Code>headers</Code>, <Code>body</Code>), or, for an operation's own <Code>params_fields</Code> (not{' '}
          <Code>private</Code>, not <Code>include: false</Code>), as query parameters of that operation named
          after their keys. A shared field that no template uses is never sent: a note for yourself stays
          here.
        </Paragraph>
        <Paragraph>
          A run that a limit stops (<Code>max_pages</Code>, or the server's limits of 1,000 pages and
          1,000,000 rows per run) keeps what it fetched and is recorded with a warning that more data may
          exist, shown in the run history and in Manage's Refresh message. A page size the API does not accept
          is an error, not a short page.
        </Paragraph>
        <Paragraph>
          Answers a response filter ignores are named in a run warning too, e.g. "Ignored 1 response (HTTP
          404) for city=Atlantis" (the first five request sequences, then "and N more"); the run still
          succeeds with the rows of the others.
        </Paragraph>
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
