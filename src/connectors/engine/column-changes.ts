import { alterTable, TableChange } from '../../database/data-tables/data-table-ddl';
import { dataTable, quoteIdentifier, writtenTextColumn } from '../../database/data-tables/data-table-names';
import type { Sql } from '../../database/sql';
import { castExpression, ColumnType } from './column-types';

/** A column to add (`from` null) or widen; `from` equal to `to` only makes sure of its written text. */
export interface ColumnChange {
  name: string;
  from: ColumnType | null;
  to: ColumnType;
}

/**
 * Adds and widens columns of a connector (or staging) table. A timestamptz column keeps the
 * instant but not the text fetched (`+02:00`, the digits written), so beside it a text column
 * keeps that text: added with it (a date column turning timestamptz fills it with its days), and
 * what the values become when the column widens to text or jsonb, after which it goes.
 */
export async function applyColumnChanges(
  sql: Sql,
  tableName: string,
  changes: ColumnChange[],
): Promise<void> {
  const gaining = changes.filter((change) => change.to === 'timestamptz');
  // A table written before these columns were kept lacks them: its values are written in UTC.
  const keeping = changes.filter((change) => change.to === 'timestamptz' || change.from === 'timestamptz');
  await alterTable(
    sql,
    tableName,
    keeping.map((change) => ({
      addColumn: { name: writtenTextColumn(change.name), sqlType: 'text' },
      ifNotExists: true,
    })),
  );
  const fromDays = gaining.filter((change) => change.from === 'date');
  if (fromDays.length > 0) {
    const assignments = fromDays.map(
      (change) =>
        `${quoteIdentifier(writtenTextColumn(change.name))} = ${quoteIdentifier(change.name)}::text`,
    );
    await sql(`UPDATE ${dataTable(tableName)} SET ${assignments.join(', ')}`);
  }
  await alterTable(sql, tableName, changes.filter((change) => change.from !== change.to).map(tableChange));
  const losing = changes.filter((change) => change.from === 'timestamptz' && change.to !== 'timestamptz');
  await alterTable(
    sql,
    tableName,
    losing.map((change) => ({ dropColumn: writtenTextColumn(change.name) })),
  );
}

function tableChange({ name, from, to }: ColumnChange): TableChange {
  if (from === null) return { addColumn: { name, sqlType: to } };
  const using = castExpression(quoteIdentifier(name), from, to, quoteIdentifier(writtenTextColumn(name)));
  return { retypeColumn: { name, sqlType: to }, using };
}
