import { readFile, mkdtemp, realpath, rm, mkdir, symlink } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner, type ToolCallResult } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from './platform.js';
import { stopwatch } from '../test/support/starvation.js';

let root: string;
let platform: Platform;
let runner: ToolRunner;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-bash-')));
  await mkdir(join(root, 'sub'));
  platform = createNodePlatform({ root });
  runner = new ToolRunner({ platform, tools: toolProfiles.anthropic() });
});
afterAll(async () => {
  await platform.dispose();
  await rm(root, { recursive: true, force: true });
});

const bash = (args: Record<string, unknown>, conversationId = 'c1', timeoutMs?: number): Promise<unknown> =>
  runner.execute('bash', args, timeoutMs === undefined ? { conversationId } : { conversationId, timeoutMs });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = text.slice(text.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

describe('bash (Anthropic profile) on Node', () => {
  it('keeps the working directory and exported variables between calls', async () => {
    expect(await bash({ command: 'cd sub && export GREETING="hello there" && pwd' })).toBe(`${root}/sub\n`);
    expect(await bash({ command: 'pwd; echo "$GREETING"' })).toBe(`${root}/sub\nhello there\n`);
    expect(await bash({ command: 'unset GREETING; echo "[${GREETING-unset}]"' })).toBe('[unset]\n');
    expect(await bash({ command: 'echo "[${GREETING-unset}]"' })).toBe('[unset]\n');
  });

  it('reports stderr and a non-zero exit code, and keeps the state of an exit', async () => {
    expect(await bash({ command: 'export CODE=7; echo out; echo err >&2; exit 3' }, 'c-exit')).toBe('out\nerr\n[exit code 3]');
    expect(await bash({ command: 'echo $CODE' }, 'c-exit')).toBe('7\n');
  });

  it('keeps the working directory when the session has no usable PATH, and one whose name holds a line break', async () => {
    // The state is put back and saved with bash builtins: a `cat` looked up on the session's own PATH
    // failed, the `cd` was lost, and an internal line of toolhost's script showed in every output.
    expect(await bash({ command: 'export PATH=/nonexistent; cd sub' }, 'c-path')).toBe('');
    expect(await bash({ command: 'echo "$PWD"; export Q=1' }, 'c-path')).toBe(`${root}/sub\n`);
    expect(await bash({ command: 'echo "$PWD $Q"' }, 'c-path')).toBe(`${root}/sub 1\n`);
    await mkdir(join(root, 'sub', 'two\nlines'));
    expect(await bash({ command: "cd sub/$'two\\nlines'" }, 'c-newline')).toBe('');
    expect(await bash({ command: 'printf "[%s]" "$PWD"' }, 'c-newline')).toBe(`[${root}/sub/two\nlines]`);
  });

  it('keeps its own lines out of a command\'s set -x trace, and its state whatever the session made of pwd or OLDPWD', async () => {
    // stdout, then stderr (the trace, one level down: the command is sourced), and nothing of the trap's.
    expect(await bash({ command: 'set -x; cd sub; echo hi' }, 'c-xtrace')).toBe('hi\n++ cd sub\n++ echo hi\n');
    expect(await bash({ command: 'shopt -s expand_aliases; alias pwd="echo /etc"; pwd() { echo /etc; }; export -f pwd' }, 'c-alias')).toBe('');
    expect(await bash({ command: 'cd sub' }, 'c-alias')).toBe('');
    expect(await bash({ command: 'echo "$PWD"' }, 'c-alias')).toBe(`${root}/sub\n`);
    expect(await bash({ command: 'cd sub; declare -rx OLDPWD' }, 'c-readonly')).toBe('');
    expect(await bash({ command: 'echo "$PWD"' }, 'c-readonly')).toBe(`${root}/sub\n`);
  });

  it('saves the session under a command\'s set -C, and gives the next command the PWD of the directory it starts in (also after a reset)', async () => {
    expect(await bash({ command: 'echo one' }, 'c-noclobber')).toBe('one\n');
    expect(await bash({ command: 'set -C; cd sub; export N=1' }, 'c-noclobber')).toBe('');
    expect(await bash({ command: 'echo "$PWD $N"' }, 'c-noclobber')).toBe(`${root}/sub 1\n`);
    const reset = await bash({ command: 'cd /' }, 'c-pwd');
    expect(reset).toContain('it was reset to');
    expect(await bash({ command: 'echo "$PWD"; builtin pwd; env | grep "^PWD="' }, 'c-pwd')).toBe(`${root}\n${root}\nPWD=${root}\n`);
  });

  it('says when a command left the session unsaved (its own EXIT trap, exec), and the next one starts where it started', async () => {
    await bash({ command: 'cd sub; export V=1' }, 'c-trap');
    const trapped = await bash({ command: "cd ..; export V=2; trap 'true' EXIT; echo done" }, 'c-trap');
    expect(trapped).toContain('done\n');
    expect(trapped).toContain("the shell's working directory and exported variables could not be saved after this command (it replaced the shell's EXIT trap, ended the shell with exec or a signal, or left it no file descriptors); the next command starts where this one started, with the variables it started with");
    expect(await bash({ command: 'echo "$PWD $V"' }, 'c-trap')).toBe(`${root}/sub 1\n`);
    expect(await bash({ command: 'exec true' }, 'c-trap')).toContain('could not be saved after this command');
    // A command that saves as usual carries no such note.
    expect(await bash({ command: 'cd ..' }, 'c-trap')).toBe('');
  });

  it('restart forgets the working directory and environment', async () => {
    await bash({ command: 'cd sub; export KEEP=1' }, 'c-restart');
    expect(await bash({ restart: true }, 'c-restart')).toBe('The bash session was restarted.');
    expect(await bash({ command: 'pwd; echo "[${KEEP-}]"' }, 'c-restart')).toBe(`${root}\n[]\n`);
  });

  it('gives two conversations separate sessions', async () => {
    await bash({ command: 'cd sub; export WHO=a' }, 'conv-a');
    await bash({ command: 'export WHO=b' }, 'conv-b');
    expect(await bash({ command: 'pwd; echo $WHO' }, 'conv-a')).toBe(`${root}/sub\na\n`);
    expect(await bash({ command: 'pwd; echo $WHO' }, 'conv-b')).toBe(`${root}\nb\n`);
  });

  it('kills the whole process group at the deadline and stays usable', async () => {
    const started = stopwatch();
    const [result] = (await runner.processToolCalls(
      [{ name: 'bash', args: { command: 'sleep 30 & echo $! > bg.pid; sleep 30' } }],
      { conversationId: 'c-timeout', timeoutMs: 1000 },
    )) as [ToolCallResult];
    expect(result).toMatchObject({ code: 'timeout' });
    expect(started.net()).toBeLessThan(1000 + 5000);
    const pid = Number((await readFile(join(root, 'bg.pid'), 'utf8')).trim());
    const deadline = Date.now() + 5000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    expect(await bash({ command: 'echo still here' }, 'c-timeout')).toBe('still here\n');
  });

  it('puts a working directory left outside the workspace back to the root, and says so', async () => {
    const reset = (where: string): string =>
      `[the command left the shell's working directory at ${where} (outside the workspace ${root}); it was reset to ${root}, where the next command starts]`;
    expect(await bash({ command: 'cd / && pwd' }, 'c-out')).toBe(`/\n${reset('/')}`);
    expect(await bash({ command: 'pwd' }, 'c-out')).toBe(`${root}\n`);
    // Climbing out with .. from a folder, with a failing command and no output: the note still comes.
    await bash({ command: 'cd sub' }, 'c-out');
    expect(await bash({ command: 'cd ../.. && false' }, 'c-out')).toBe(`[exit code 1]\n${reset(dirname(root))}`);
    expect(await bash({ command: 'pwd' }, 'c-out')).toBe(`${root}\n`);
    // Through a link inside the workspace that leads out: judged by the real path.
    await symlink(tmpdir(), join(root, 'out-link'));
    const real = await realpath(tmpdir());
    expect(await bash({ command: 'cd out-link; echo moved' }, 'c-out')).toBe(`moved\n${reset(`${root}/out-link (${real})`)}`);
    expect(await bash({ command: 'pwd' }, 'c-out')).toBe(`${root}\n`);
    // Moving about inside says nothing; exported variables set alongside are kept.
    expect(await bash({ command: 'cd sub && export SEEN=1 && cd / && cd "$OLDPWD"; pwd' }, 'c-out')).toBe(`${root}/sub\n`);
    const tmp = await realpath('/tmp');
    expect(await bash({ command: 'echo $SEEN; cd /tmp; export SEEN=2' }, 'c-out')).toBe(`1\n${reset(tmp === '/tmp' ? '/tmp' : `/tmp (${tmp})`)}`);
    expect(await bash({ command: 'echo $SEEN; pwd' }, 'c-out')).toBe(`2\n${root}\n`);
  });

  it('answers with a note where the platform has no shell', async () => {
    const memory = new ToolRunner({ tools: toolProfiles.anthropic() });
    expect(await memory.execute('bash', { command: 'ls' })).toBe('(no output: bash is not available on the memory platform)');
  });
});
