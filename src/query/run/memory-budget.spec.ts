import { memoryNodes, ROLE_WORK_MEM_KB, sharedWorkMemKb } from './memory-budget';

const plan = (root: object) => [{ Plan: root }];

describe('memoryNodes', () => {
  it('counts the nodes that hold rows in memory up to work_mem, at every depth', () => {
    expect(
      memoryNodes(
        plan({
          'Node Type': 'Append',
          Plans: [
            { 'Node Type': 'Sort', Plans: [{ 'Node Type': 'Seq Scan' }] },
            { 'Node Type': 'Hash Join', Plans: [{ 'Node Type': 'Seq Scan' }, { 'Node Type': 'Hash' }] },
            { 'Node Type': 'Aggregate', Strategy: 'Hashed' },
            { 'Node Type': 'Aggregate', Strategy: 'Sorted' },
            { 'Node Type': 'SetOp', Strategy: 'Hashed' },
            { 'Node Type': 'Function Scan' },
            { 'Node Type': 'Seq Scan', Plans: [{ 'Node Type': 'Result', 'Subplan Name': 'SubPlan 1' }] },
          ],
        }),
      ),
    ).toBe(6);
  });

  it('is nothing for a plan of scans, and for no plan', () => {
    expect(memoryNodes(plan({ 'Node Type': 'Limit', Plans: [{ 'Node Type': 'Seq Scan' }] }))).toBe(0);
    expect(memoryNodes(undefined)).toBe(0);
  });
});

describe('sharedWorkMemKb', () => {
  it('shares the budget among the nodes, never above the role’s own nor below PostgreSQL’s least', () => {
    expect(sharedWorkMemKb(0, 256 * 1024)).toBe(ROLE_WORK_MEM_KB);
    expect(sharedWorkMemKb(4, 256 * 1024)).toBe(ROLE_WORK_MEM_KB);
    expect(sharedWorkMemKb(8, 256 * 1024)).toBe(32 * 1024);
    expect(sharedWorkMemKb(600, 256 * 1024)).toBe(436);
    expect(sharedWorkMemKb(100_000, 256 * 1024)).toBe(64);
  });
});
