import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { RunCommandResult, ShellSession } from '../src/core/types.js';
import { clipForMessage } from '../src/fs/text.js';
import { COMMAND_MARKER_VARIABLE, runShellCommand, type RunShellCommandOptions } from './run-command.js';

/** Options of {@link createShellSessions}. */
export interface ShellSessionsOptions {
  /** Process options of each command (shell, env, kill grace), as `run_command` takes them; the shell defaults to `/bin/bash`. */
  command?: RunShellCommandOptions;
  /**
   * The workspace root (a real, absolute path). With it, a command that leaves the shell's working
   * directory outside the root (`cd /`, `cd ..` from the root, a link out) has it put back to the
   * root for the next command, and its result's `note` says so.
   */
  root?: string;
}

/** The sessions of one platform: one per conversation, created on first use, removed on dispose. */
export interface ShellSessions {
  get(conversationId: string): ShellSession;
  dispose(): Promise<void>;
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Puts the working directory saved in `cwdFile` back to `root` when its real path is outside it, and
 * answers the note saying so (undefined when it is inside, or gone: the next command then starts in
 * its `cwd` anyway).
 */
async function keepInside(cwdFile: string, root: string): Promise<string | undefined> {
  let saved: string;
  let real: string;
  try {
    saved = (await readFile(cwdFile, 'utf8')).replace(/\n$/, '');
    real = await realpath(saved);
  } catch {
    return undefined;
  }
  if (real === root || root === sep || real.startsWith(root + sep)) return undefined;
  await writeFile(cwdFile, `${root}\n`);
  const where = saved === real ? clipForMessage(saved) : `${clipForMessage(saved)} (${clipForMessage(real)})`;
  return `the command left the shell's working directory at ${where} (outside the workspace ${root}); it was reset to ${root}, where the next command starts`;
}

/**
 * The note of a command after which the session's state was not saved (`saved`, which the shell's
 * exit trap writes last, is missing): the next command starts in the working directory and with the
 * variables this one started with. Undefined when it was saved, or when the command was stopped (a
 * timeout or an abort: its result says so).
 */
async function unsaved(saved: string, result: RunCommandResult): Promise<string | undefined> {
  if (result.timed_out === true) return undefined;
  try {
    await stat(saved);
    return undefined;
  } catch {
    return (
      "the shell's working directory and exported variables could not be saved after this command (it replaced the shell's EXIT trap, " +
      'ended the shell with exec or a signal, or left it no file descriptors); the next command starts where this one started, with the variables it started with'
    );
  }
}

/**
 * Persistent shell sessions on Node, one per conversation. Each command runs through
 * `runShellCommand` (the same spawning as `run_command`: its own process group, killed whole on
 * timeout or abort, output capped), in bash, with the session's state put back first and saved
 * again when the shell exits: the working directory and every exported variable (a variable unset
 * in the session stays unset). State lives in a private temporary directory per session. Shell
 * functions, aliases, unexported variables and background jobs do not carry over. Commands of one
 * session run one at a time, in call order. With `root`, the session stays in the workspace as
 * `run_command` does: a working directory a command left outside it (by its real path) is reset to
 * the root, and the result's `note` names both: `the command left the shell's working directory at /
 * (outside the workspace /ws); it was reset to /ws, where the next command starts`.
 */
export function createShellSessions(options: ShellSessionsOptions = {}): ShellSessions {
  const sessions = new Map<string, { session: ShellSession; dir: string }>();
  const command: RunShellCommandOptions = { shell: '/bin/bash', ...options.command };

  const create = (): { session: ShellSession; dir: string } => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-shell-'));
    let queue: Promise<unknown> = Promise.resolve();
    const files = { env: join(dir, 'env'), cwd: join(dir, 'cwd'), command: join(dir, 'command'), saved: join(dir, 'saved') };
    const script = (cwd: string): string =>
      [
        // Builtins only, here and in the trap (`builtin`, so no alias or function of the session stands in
        // for them): the state just restored may hold any PATH, or none. The working directory is put back
        // first, so variables the session made read-only (OLDPWD) cannot stop the `cd`.
        `if [ -f ${quote(files.cwd)} ]; then IFS= builtin read -r -d '' __toolhost_v < ${quote(files.cwd)}; builtin cd -- "\${__toolhost_v%$'\\n'}" 2>/dev/null || builtin cd ${quote(cwd)}; else builtin cd ${quote(cwd)}; fi`,
        '__toolhost_dir=$PWD',
        `if [ -f ${quote(files.env)} ]; then`,
        // The marker run_command tracks this command's processes by is this command's, not the saved one.
        `  __toolhost_id=$${COMMAND_MARKER_VARIABLE}`,
        '  for __toolhost_v in $(compgen -e); do unset "$__toolhost_v" 2>/dev/null; done',
        `  . ${quote(files.env)} 2>/dev/null`,
        `  export ${COMMAND_MARKER_VARIABLE}="$__toolhost_id"; unset __toolhost_id`,
        'fi',
        // The saved variables hold the PWD they were saved with: the directory just entered is the one
        // (another when it was reset to the root, or gone).
        '{ PWD=$__toolhost_dir; } 2>/dev/null',
        'unset __toolhost_v __toolhost_dir',
        // `set -x` / `set -v` of the command are turned off first, silently: the trap's own lines are no output of the command's.
        // `>|`: a command's `set -C` (noclobber) does not stop the trap overwriting the files.
        `trap ${quote(`{ __toolhost_status=$?; set +xv; } 2>/dev/null; { builtin pwd >| ${quote(files.cwd)} && builtin export -p >| ${quote(files.env)} && : >| ${quote(files.saved)}; } 2>/dev/null; builtin exit $__toolhost_status`)} EXIT`,
        `. ${quote(files.command)}`,
      ].join('\n');
    const session: ShellSession = {
      run(request, signal): Promise<RunCommandResult> {
        const turn = queue.then(async () => {
          await Promise.all([writeFile(files.command, request.command), rm(files.saved, { force: true })]);
          const result = await runShellCommand({ command: script(request.cwd), cwd: request.cwd, timeoutMs: request.timeoutMs }, signal, command);
          const notes = [result.note, await unsaved(files.saved, result), options.root === undefined ? undefined : await keepInside(files.cwd, options.root)];
          const note = notes.filter((part) => part !== undefined).join(' ');
          return note === '' ? result : { ...result, note };
        });
        queue = turn.catch(() => undefined);
        return turn;
      },
      async restart(): Promise<void> {
        await queue;
        await Promise.all([rm(files.env, { force: true }), rm(files.cwd, { force: true })]);
      },
    };
    return { session, dir };
  };

  return {
    get(conversationId: string): ShellSession {
      let entry = sessions.get(conversationId);
      if (!entry) {
        entry = create();
        sessions.set(conversationId, entry);
      }
      return entry.session;
    },
    async dispose(): Promise<void> {
      for (const { dir } of sessions.values()) rmSync(dir, { recursive: true, force: true });
      sessions.clear();
    },
  };
}
