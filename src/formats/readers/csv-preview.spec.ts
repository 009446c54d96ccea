import iconv from 'iconv-lite';
import { previewCsv } from './csv-preview';

const GERMAN = 'Stadt;Betrag;Datum;PLZ\nMünchen;1.234,50;31.12.2024;08001\nKöln;7,25;01.02.2025;50667\n';

describe('previewCsv', () => {
  it('types the columns of a decimal-comma, day-first Latin-1 file as read in its dialect', () => {
    const preview = previewCsv(iconv.encode(GERMAN, 'latin1'), {}, true);
    expect(preview.dialect).toMatchObject({ delimiter: ';', encoding: 'windows-1252', decimal: ',' });
    expect(preview.columns).toEqual([
      { name: 'stadt', label: 'Stadt', type: 'text' },
      { name: 'betrag', label: 'Betrag', type: 'numeric' },
      { name: 'datum', label: 'Datum', type: 'date' },
      { name: 'plz', label: 'PLZ', type: 'text' },
    ]);
    expect(preview.rows[0]).toEqual(['München', '1.234,50', '31.12.2024', '08001']);
  });

  it('follows a chosen dialect over the detected one', () => {
    const preview = previewCsv(Buffer.from(GERMAN), { decimal: '.', thousands: '', dateOrder: 'ymd' }, true);
    expect(preview.columns.map((column) => column.type)).toEqual(['text', 'text', 'text', 'text']);
  });

  it('leaves out the cut-off last line of a sample that is not the whole file', () => {
    const sample = Buffer.from('a,b\n1,2\n3,4\n5,');
    expect(previewCsv(sample, {}, false).rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(previewCsv(sample, {}, true).rows).toHaveLength(3);
  });
});
