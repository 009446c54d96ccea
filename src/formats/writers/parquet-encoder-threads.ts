import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Encoder threads shared by every Parquet file the process writes: at most one per core, kept
 * idle between files (starting one costs tens of milliseconds). Past that many files at once, a
 * file is encoded on the request's own thread instead.
 */
const MAX_THREADS = availableParallelism();
/**
 * A thread's JavaScript heap holds little beyond a row group's small objects (its bytes live in
 * buffers outside the heap), so a small young generation is enough and keeps the thread's
 * memory small.
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 8 };
const idle: Worker[] = [];
let threads = 0;

/**
 * The thread's module: compiled JavaScript beside this file in a build; from the TypeScript
 * sources (as tests run them), the same module compiled as it loads.
 */
function threadModule(): { file: string; execArgv?: string[] } {
  const compiled = join(__dirname, 'parquet-encoder.thread.js');
  if (existsSync(compiled)) return { file: compiled };
  return {
    file: join(__dirname, 'parquet-encoder.thread.ts'),
    execArgv: ['--require', '@swc-node/register'],
  };
}

/** An idle or new encoder thread, or undefined when every one the process may have is busy. */
export function takeEncoderThread(): Worker | undefined {
  const thread = idle.pop();
  if (thread) {
    thread.ref();
    return thread;
  }
  if (threads >= MAX_THREADS) return undefined;
  const { file, execArgv } = threadModule();
  const started = new Worker(file, { execArgv, resourceLimits: THREAD_LIMITS });
  threads++;
  // A thread that dies while idle is only dropped; a file's own listener reports it to that file.
  started.on('error', () => undefined);
  started.once('exit', () => {
    threads--;
    const at = idle.indexOf(started);
    if (at !== -1) idle.splice(at, 1);
  });
  return started;
}

/**
 * A thread whose file ended cleanly (its listeners removed) waits for the next one, without
 * keeping the process alive.
 */
export function returnEncoderThread(thread: Worker): void {
  thread.unref();
  idle.push(thread);
}

/** A thread whose file failed or was given up half-way: its state is unknown, so it ends. */
export function endEncoderThread(thread: Worker): void {
  void thread.terminate();
}
