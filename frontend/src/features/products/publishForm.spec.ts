import {
  checkPublishForm,
  emptyPublishForm,
  IMAGE_INVALID,
  PRICE_INVALID,
  publishedColumns,
  TITLE_REQUIRED,
  TITLE_TOO_LONG,
} from './publishForm';

const filled = {
  ...emptyPublishForm('Harbour readings'),
  description: ' Hourly water levels. ',
  category: 'Science',
  keywords: 'harbour, tides , ,water',
  price: '19.90',
  licence: 'CC BY 4.0',
  image: 'https://example.com/harbour.png',
  isPublic: false,
  dictionary: { station: ' Sensor station ', level: '', hour: 'Hour of the day' },
};

describe('checkPublishForm', () => {
  it('builds the publish body: trimmed texts, keywords as a list, empty descriptions left out', () => {
    expect(checkPublishForm(filled, 'harbour_readings')).toEqual({
      input: {
        table: 'harbour_readings',
        title: 'Harbour readings',
        description: 'Hourly water levels.',
        category: 'Science',
        keywords: ['harbour', 'tides', 'water'],
        price: '19.90',
        licence: 'CC BY 4.0',
        image: 'https://example.com/harbour.png',
        is_public: false,
        dictionary: { station: 'Sensor station', hour: 'Hour of the day' },
      },
    });
  });

  it('sends an empty price as free and leaves out an empty category and image for the defaults', () => {
    const check = checkPublishForm({ ...emptyPublishForm('Tides'), price: ' ' }, 'tides');
    expect(check.input).toEqual({
      table: 'tides',
      title: 'Tides',
      description: '',
      keywords: [],
      price: '0',
      licence: '',
      is_public: true,
      dictionary: {},
    });
  });

  it('names every field that must change before anything is sent', () => {
    expect(
      checkPublishForm({ ...filled, title: '  ', price: '-1', image: 'javascript:alert(1)' }, 't'),
    ).toEqual({ errors: { title: TITLE_REQUIRED, price: PRICE_INVALID, image: IMAGE_INVALID } });
    expect(checkPublishForm({ ...filled, title: 'x'.repeat(201), price: '1.999' }, 't')).toEqual({
      errors: { title: TITLE_TOO_LONG, price: PRICE_INVALID },
    });
  });

  it('takes a path on this site as the image', () => {
    expect(checkPublishForm({ ...filled, image: '/images/harbour.png' }, 't').input?.image).toBe(
      '/images/harbour.png',
    );
  });
});

describe('publishedColumns', () => {
  it("leaves out the connector's run bookkeeping and keeps the table's order", () => {
    const columns = [
      { name: 'station', type: 'text' },
      { name: '_run_id', type: 'text' },
      { name: 'level', type: 'numeric' },
      { name: '_fetched_at', type: 'timestamptz' },
    ];
    expect(publishedColumns(columns).map((column) => column.name)).toEqual(['station', 'level']);
  });
});
