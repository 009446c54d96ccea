import { CsvRecords } from './csv-records';

describe('counting CSV records as COPY writes them', () => {
  it('stops just after the wanted record, and counts newlines inside quotes as text', () => {
    const chunk = Buffer.from('1,"a\nb"\n2,"say ""hi"""\n3,x\n');
    const scanned = new CsvRecords().scan(chunk, 2);
    expect(scanned.records).toBe(2);
    expect(chunk.subarray(0, scanned.end).toString()).toBe('1,"a\nb"\n2,"say ""hi"""\n');
  });

  it('keeps its place inside quotes from one chunk to the next', () => {
    const records = new CsvRecords();
    expect(records.scan(Buffer.from('1,"a\n'), 5)).toEqual({ records: 0, end: 5 });
    expect(records.scan(Buffer.from('b"\n2,'), 5)).toEqual({ records: 1, end: 5 });
    expect(records.scan(Buffer.from('c\n'), 5)).toEqual({ records: 1, end: 2 });
  });
});
