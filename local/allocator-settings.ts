// glibc's malloc settings for the `npm start` process (docs/performance.md, "The local process's
// memory, ninth round"). Every workflow step runs in that one process, and the files' Buffers pass
// through glibc's heap on both sides of the embedded store's HTTP: by default glibc raises its mmap
// threshold to the largest block freed (Finalize's 5 MiB parts), after which every smaller block
// comes from the main heap and stays there when freed. A fixed threshold, a trim threshold and two
// arenas keep the process about 10–20 MB smaller through an upload. glibc reads these only from
// the environment at start, so the process starts itself again with them: same process id, same
// arguments, same descriptors (process.execve), as the first thing `npm start`'s start file does
// (bin/local-bundle.ts), before the program and its packages are loaded.

/** The settings, added only when none of them is set: an operator who sets one has chosen for all three. */
export const ALLOCATOR_SETTINGS: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

export interface RestartFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Node's process.execve (Node 22.15 and later; absent before). */
  execve: Execve | undefined;
  /** An IPC channel to a parent (fork()): its descriptor is not one to carry across an exec. */
  hasIpcChannel: boolean;
}

/** The environment to start again with, or null when this process should go on as it is. */
export function allocatorRestartEnv(facts: Omit<RestartFacts, 'execve'>): NodeJS.ProcessEnv | null {
  // Other platforms' allocators do not read these; musl ignores them too, harmlessly.
  if (facts.platform !== 'linux' || facts.hasIpcChannel) return null;
  // Set already (by the operator, or by the start this one came from): never a second exec.
  if (Object.keys(ALLOCATOR_SETTINGS).some((name) => facts.env[name] !== undefined)) return null;
  return { ...facts.env, ...ALLOCATOR_SETTINGS };
}

/** Starts this process again with the allocator settings (never returns then), or does nothing. */
export function restartWithAllocatorSettings(facts: RestartFacts = currentFacts()): void {
  if (!facts.execve) return;
  const env = allocatorRestartEnv(facts);
  if (!env) return;
  try {
    facts.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
  } catch {
    // Not started again (a Node that throws when the system refuses the exec): the service runs
    // as it would have, on glibc's defaults. Node 22 aborts instead of throwing (nodejs/node#62878
    // changed that later); what is exec'd is the binary running this very process, so a refusal
    // there means it vanished since this start, or an environment past the system's size limit.
  }
}

function currentFacts(): RestartFacts {
  const execve = (process as { execve?: Execve }).execve;
  return { platform: process.platform, env: process.env, execve: execve?.bind(process), hasIpcChannel: process.channel !== undefined };
}
