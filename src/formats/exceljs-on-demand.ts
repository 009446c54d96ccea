import type ExcelJS from 'exceljs';

export type ExcelJSModule = typeof ExcelJS;

let loading: Promise<ExcelJSModule> | undefined;

/**
 * ExcelJS, loaded when the process first reads or writes a workbook: loading it adds about 30 MB
 * to a process's memory, which an API that never meets an .xlsx file need not carry.
 */
export function loadExcelJS(): Promise<ExcelJSModule> {
  loading ??= import('exceljs').then((module) => module.default);
  return loading;
}
