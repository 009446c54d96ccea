import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Encoder threads shared by every Parquet file the process writes, kept idle between files
 * (starting one costs tens of milliseconds). A file takes two when a core is idle, one filling
 * row groups from the COPY while the other encodes and compresses the previous group; at most two
 * per core, so as many files at once as cores may each have a pair. Past that, a file takes the
 * one left, or is encoded on the request's own thread.
 */
const CORES = availableParallelism();
const MAX_THREADS = 2 * CORES;
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

/**
 * How many threads a file should take: two only while a core is left idle (by the last minute's
 * load average). Split in two, a file's encoding costs about an eighth more CPU (two threads
 * handing groups over), which pays when a core would otherwise idle and not when every core is
 * busy: measured on 2 shared cores at load 11-14, one thread per file was the faster
 * (docs/performance.md).
 */
export function threadsPerFile(load = loadavg()[0]): number {
  return load <= CORES - 1 ? 2 : 1;
}

/** Up to `wanted` encoder threads for one file: none when every one the process may have is busy. */
export function takeEncoderThreads(wanted = threadsPerFile()): Worker[] {
  const taken: Worker[] = [];
  for (let thread = takeEncoderThread(); thread; thread = takeEncoderThread()) {
    taken.push(thread);
    if (taken.length === wanted) break;
  }
  return taken;
}

/** Threads working on a file now (neither idle nor ended): none once every file has ended or stopped. */
export function busyEncoderThreads(): number {
  return threads - idle.length;
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
