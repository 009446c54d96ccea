import {
  checkDatasetUpload,
  chosenFileProblem,
  DatasetUploadForm,
  PRICE_INVALID,
  TITLE_AND_FILE_REQUIRED,
} from './datasetUpload';

const csv = { name: 'prices.csv' } as File;
const form: DatasetUploadForm = {
  title: ' Prices ',
  description: ' Daily ',
  category: 'Finance',
  keywords: 'a, b',
  licence: ' CC BY 4.0 ',
  price: '',
  isPublic: false,
  file: csv,
};

describe('checkDatasetUpload', () => {
  it("says 'Add title & CSV file.' without a title", () => {
    expect(checkDatasetUpload({ ...form, title: '  ' }).error).toBe(TITLE_AND_FILE_REQUIRED);
  });

  it("says 'Add title & CSV file.' without a file", () => {
    expect(checkDatasetUpload({ ...form, file: null }).error).toBe(TITLE_AND_FILE_REQUIRED);
  });

  it('says what is wrong with a file of no kind the upload takes when the title is there', () => {
    const checked = checkDatasetUpload({ ...form, file: { name: 'prices.ods' } as File });
    expect(checked.error).toBe(
      '“prices.ods” is not a CSV, Excel or Parquet file: choose a file ending in .csv, .xlsx or .parquet.',
    );
    expect(checked.detail).toBeUndefined();
  });

  it("says 'Add title & CSV file.' without a title and a wrong file, and beside the form what is needed", () => {
    const checked = checkDatasetUpload({ ...form, title: '', file: { name: 'prices.ods' } as File });
    expect(checked.error).toBe(TITLE_AND_FILE_REQUIRED);
    expect(checked.detail).toBe(
      '“prices.ods” is not a CSV, Excel or Parquet file: choose a file ending in .csv, .xlsx or .parquet.',
    );
  });

  it('says what is wrong with a chosen file at once, and nothing for a file the upload takes', () => {
    expect(chosenFileProblem({ name: 'prices.ods' } as File)).toBe(
      '“prices.ods” is not a CSV, Excel or Parquet file: choose a file ending in .csv, .xlsx or .parquet.',
    );
    expect(chosenFileProblem({ name: 'prices.CSV' } as File)).toBeNull();
    expect(chosenFileProblem(null)).toBeNull();
  });

  it.each(['Prices.XLSX', 'prices.parquet'])('takes %p like a CSV file', (name) => {
    expect(checkDatasetUpload({ ...form, file: { name } as File }).fields?.title).toBe(form.title.trim());
  });

  it('has nothing more to say than the notice when the title or file is simply missing', () => {
    expect(checkDatasetUpload({ ...form, file: null }).detail).toBeUndefined();
  });

  it('refuses a negative price or one with three decimals', () => {
    expect(checkDatasetUpload({ ...form, price: '-1' }).error).toBe(PRICE_INVALID);
    expect(checkDatasetUpload({ ...form, price: '1.999' }).error).toBe(PRICE_INVALID);
  });

  it('builds the text parts, an empty price meaning free', () => {
    expect(checkDatasetUpload(form).fields).toEqual({
      title: 'Prices',
      description: 'Daily',
      category: 'Finance',
      keywords: 'a, b',
      licence: 'CC BY 4.0',
      price: '0',
      is_public: 'false',
    });
  });

  it('accepts an upper-case extension and a price with two decimals', () => {
    expect(
      checkDatasetUpload({ ...form, file: { name: 'A.CSV' } as File, price: '19.99' }).fields?.price,
    ).toBe('19.99');
  });
});
