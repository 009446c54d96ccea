import { pageCount, pageWindow } from './pageWindow';

describe('pageWindow', () => {
  it('fills the first page with connectors, then datasets from the start', () => {
    expect(pageWindow(0, 10, 4)).toEqual({
      connectorStart: 0,
      connectorEnd: 4,
      assetOffset: 0,
      assetLimit: 6,
    });
  });

  it('asks for no datasets on a page made only of connectors', () => {
    expect(pageWindow(0, 10, 25)).toEqual({
      connectorStart: 0,
      connectorEnd: 10,
      assetOffset: 0,
      assetLimit: 0,
    });
  });

  it('continues the datasets where the previous page stopped', () => {
    expect(pageWindow(1, 10, 4)).toEqual({
      connectorStart: 4,
      connectorEnd: 4,
      assetOffset: 6,
      assetLimit: 10,
    });
    expect(pageWindow(2, 10, 25)).toEqual({
      connectorStart: 20,
      connectorEnd: 25,
      assetOffset: 0,
      assetLimit: 5,
    });
  });

  it('counts at least one page', () => {
    expect(pageCount(0, 24)).toBe(1);
    expect(pageCount(49, 24)).toBe(3);
  });
});
