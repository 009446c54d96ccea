import { ApiProperty } from '@nestjs/swagger';

class QueryTableColumn {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'PostgreSQL type name, e.g. int8, numeric, text, date, timestamptz' })
  type: string;
}

/** GET query/tables: one table the caller may query. */
export class QueryTableResponse {
  @ApiProperty({ description: 'The name to use in SQL' })
  name: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: ['dataset', 'connector'] })
  kind: string;

  @ApiProperty({ type: QueryTableColumn, isArray: true })
  columns: QueryTableColumn[];
}
