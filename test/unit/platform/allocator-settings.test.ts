import { describe, expect, it, vi } from 'vitest';
import { ALLOCATOR_SETTINGS, allocatorRestartEnv, restartWithAllocatorSettings } from '../../../local/allocator-settings';

// npm start's process starts itself again with glibc's malloc settings (docs/performance.md, "The
// local process's memory, ninth round"); these are the rules for when it does.

const linux = { platform: 'linux' as const, env: { PATH: '/bin', DATA_DIR: '/d' }, hasIpcChannel: false };

describe('allocator settings for the npm start process', () => {
  it('on Linux, without them: the same environment with the settings added', () => {
    expect(allocatorRestartEnv(linux)).toEqual({ PATH: '/bin', DATA_DIR: '/d', ...ALLOCATOR_SETTINGS });
  });

  it('never a second exec: the process started with them goes on', () => {
    expect(allocatorRestartEnv({ ...linux, env: { ...linux.env, ...ALLOCATOR_SETTINGS } })).toBeNull();
  });

  it("the operator's own setting of any one of them wins: nothing is added or changed", () => {
    expect(allocatorRestartEnv({ ...linux, env: { ...linux.env, MALLOC_ARENA_MAX: '8' } })).toBeNull();
    expect(allocatorRestartEnv({ ...linux, env: { ...linux.env, MALLOC_TRIM_THRESHOLD_: '0' } })).toBeNull();
  });

  it('other platforms, or a process with an IPC channel to its parent, go on as they are', () => {
    expect(allocatorRestartEnv({ ...linux, platform: 'darwin' })).toBeNull();
    expect(allocatorRestartEnv({ ...linux, platform: 'win32' })).toBeNull();
    expect(allocatorRestartEnv({ ...linux, hasIpcChannel: true })).toBeNull();
  });

  it('execs node with its own flags and arguments, and does nothing where Node has no execve', () => {
    const execve = vi.fn();
    restartWithAllocatorSettings({ ...linux, execve: execve as never });
    expect(execve).toHaveBeenCalledWith(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...linux.env, ...ALLOCATOR_SETTINGS });
    expect(() => restartWithAllocatorSettings({ ...linux, execve: undefined })).not.toThrow();
    // An exec the system refuses leaves the process running as it was.
    const refused = vi.fn(() => {
      throw Object.assign(new Error('E2BIG'), { code: 'E2BIG' });
    });
    expect(() => restartWithAllocatorSettings({ ...linux, execve: refused as never })).not.toThrow();
    expect(refused).toHaveBeenCalledOnce();
  });
});
