import { IsBoolean, IsObject, IsOptional } from 'class-validator';

/** Settings for this run only; `override` (top level or inside settings) replaces the table's rows. */
export class RunInstanceDto {
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  @IsOptional()
  @IsBoolean()
  override?: boolean;
}
