import { mkdtempSync, rmSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMAND_MARKER_VARIABLE, runShellCommand } from './run-command.js';
const quote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;
/**
 * Persistent shell sessions on Node, one per conversation. Each command runs through
 * `runShellCommand` (the same spawning as `run_command`: its own process group, killed whole on
 * timeout or abort, output capped), in bash, with the session's state put back first and saved
 * again when the shell exits: the working directory and every exported variable (a variable unset
 * in the session stays unset). State lives in a private temporary directory per session. Shell
 * functions, aliases, unexported variables and background jobs do not carry over. Commands of one
 * session run one at a time, in call order.
 */
export function createShellSessions(options = {}) {
    const sessions = new Map();
    const command = { shell: '/bin/bash', ...options.command };
    const create = () => {
        const dir = mkdtempSync(join(tmpdir(), 'toolhost-shell-'));
        let queue = Promise.resolve();
        const files = { env: join(dir, 'env'), cwd: join(dir, 'cwd'), command: join(dir, 'command') };
        const script = (cwd) => [
            `if [ -f ${quote(files.env)} ]; then`,
            // The marker run_command tracks this command's processes by is this command's, not the saved one.
            `  __toolhost_id=$${COMMAND_MARKER_VARIABLE}`,
            '  for __toolhost_v in $(compgen -e); do unset "$__toolhost_v" 2>/dev/null; done',
            `  . ${quote(files.env)}`,
            `  export ${COMMAND_MARKER_VARIABLE}="$__toolhost_id"; unset __toolhost_id`,
            'fi',
            `if [ -f ${quote(files.cwd)} ]; then cd "$(cat ${quote(files.cwd)})" 2>/dev/null || cd ${quote(cwd)}; else cd ${quote(cwd)}; fi`,
            'unset __toolhost_v',
            `trap '__toolhost_status=$?; pwd > ${quote(files.cwd).replace(/'/g, `'\\''`)}; export -p > ${quote(files.env).replace(/'/g, `'\\''`)}; exit $__toolhost_status' EXIT`,
            `. ${quote(files.command)}`,
        ].join('\n');
        const session = {
            run(request, signal) {
                const turn = queue.then(async () => {
                    await writeFile(files.command, request.command);
                    return runShellCommand({ command: script(request.cwd), cwd: request.cwd, timeoutMs: request.timeoutMs }, signal, command);
                });
                queue = turn.catch(() => undefined);
                return turn;
            },
            async restart() {
                await queue;
                await Promise.all([rm(files.env, { force: true }), rm(files.cwd, { force: true })]);
            },
        };
        return { session, dir };
    };
    return {
        get(conversationId) {
            let entry = sessions.get(conversationId);
            if (!entry) {
                entry = create();
                sessions.set(conversationId, entry);
            }
            return entry.session;
        },
        async dispose() {
            for (const { dir } of sessions.values())
                rmSync(dir, { recursive: true, force: true });
            sessions.clear();
        },
    };
}
//# sourceMappingURL=shell-session.js.map