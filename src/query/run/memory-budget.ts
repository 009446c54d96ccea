/**
 * PostgreSQL gives `work_mem` to each sort, hash, materialisation and tuplestore of a plan, not
 * to the statement: a query of a thousand sorting branches (`… UNION ALL …`) held gigabytes in
 * one backend, in memory, with nothing spilled for temp_file_limit to stop. So before a user's
 * statement runs, its plan's memory nodes are counted and the statement's `work_mem` is the
 * budget (QUERY_MEMORY_MB, 256 MB by default) shared among them: each spills to disk sooner, and
 * the whole stays within the budget. The plan run may differ a little from the one counted (less
 * memory can change it), never towards more memory nodes of any size.
 */

/** The query roles' own work_mem (query-roles.service.ts): never raised, only shared. */
export const ROLE_WORK_MEM_KB = 64 * 1024;
/** PostgreSQL's least work_mem. */
const LEAST_WORK_MEM_KB = 64;

/**
 * Nodes that keep rows or a table in memory up to work_mem before spilling: over-counting only
 * makes each share smaller. Aggregates and set operations count when hashed; a subplan (perhaps
 * hashed: `x IN (SELECT …)`) counts as one.
 */
const MEMORY_NODES = new Set([
  'Sort',
  'Incremental Sort',
  'Hash',
  'Materialize',
  'Memoize',
  'WindowAgg',
  'Recursive Union',
  'CTE Scan',
  'Function Scan',
  'Table Function Scan',
  'Bitmap Heap Scan',
]);
const HASHED_STRATEGIES = new Set(['Hashed', 'Mixed']);

interface PlanNode {
  'Node Type'?: string;
  Strategy?: string;
  'Subplan Name'?: string;
  Plans?: PlanNode[];
}

/** The memory nodes of a plan as `EXPLAIN (FORMAT JSON)` gives it. */
export function memoryNodes(explained: unknown): number {
  const root = (explained as Array<{ Plan?: PlanNode }> | undefined)?.[0]?.Plan;
  let count = 0;
  const pending: PlanNode[] = root ? [root] : [];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const type = node['Node Type'] ?? '';
    if (MEMORY_NODES.has(type)) count += 1;
    else if ((type === 'Aggregate' || type === 'SetOp') && HASHED_STRATEGIES.has(node.Strategy ?? ''))
      count += 1;
    if (node['Subplan Name']?.startsWith('SubPlan')) count += 1;
    pending.push(...(node.Plans ?? []));
  }
  return count;
}

/** The work_mem (in kB) each of `nodes` memory nodes gets: the budget shared, at most the role's own. */
export function sharedWorkMemKb(nodes: number, budgetKb: number): number {
  const share = Math.floor(budgetKb / Math.max(nodes, 1));
  return Math.max(LEAST_WORK_MEM_KB, Math.min(ROLE_WORK_MEM_KB, share));
}
