import { describe, expect, it } from 'vitest';
import { ToolRunner, defineTool, type PermissionRequest, type PermissionAnswer } from '../src/index.js';

const read = defineTool({ name: 'read_thing', description: '', parameters: { type: 'object' }, readOnly: true, call: async () => 'read' });
const write = defineTool({ name: 'write_thing', description: '', parameters: { type: 'object', properties: { v: { type: 'integer' } } }, call: async () => 'written' });
const deploy = defineTool({ name: 'deploy_prod', description: '', parameters: { type: 'object' }, call: async () => 'deployed' });

describe('permissions', () => {
  it('allows everything by default', async () => {
    const runner = new ToolRunner({ tools: [read, write] });
    expect(await runner.execute('write_thing', {})).toBe('written');
  });

  it('plan mode, the one read-only switch, refuses tools that are not read-only and records the denial', async () => {
    const runner = new ToolRunner({ tools: [read, write], planMode: true });
    expect(await runner.processToolCalls([{ name: 'read_thing', args: {} }, { name: 'write_thing', args: { v: 1 } }])).toEqual([
      { name: 'read_thing', result: 'read' },
      { name: 'write_thing', code: 'permission_denied', error: 'plan mode is on: write_thing changes things and only read-only tools may run; read and plan with those, and propose the change instead of making it (the user or host turns plan mode off)' },
    ]);
    const [denial] = runner.denialTracker.list();
    expect(denial).toMatchObject({ tool: 'write_thing', args: { v: 1 }, conversationId: 'default', reason: 'plan mode is on: write_thing changes things and only read-only tools may run; read and plan with those, and propose the change instead of making it (the user or host turns plan mode off)' });
    expect(typeof denial?.time).toBe('number');
    expect(runner.denialTracker.count('write_thing')).toBe(1);
  });

  it('plan mode refuses every tool that is not read-only, whatever the policy', async () => {
    const runner = new ToolRunner({ tools: [read, write], planMode: true });
    expect(await runner.processToolCalls([{ name: 'write_thing', args: {} }, { name: 'read_thing', args: {} }])).toEqual([
      {
        name: 'write_thing',
        code: 'permission_denied',
        error: 'plan mode is on: write_thing changes things and only read-only tools may run; read and plan with those, and propose the change instead of making it (the user or host turns plan mode off)',
      },
      { name: 'read_thing', result: 'read' },
    ]);
    expect(runner.denialTracker.count()).toBe(1);
  });

  it('applies allow and deny patterns with a trailing * as prefix and deny winning', async () => {
    const runner = new ToolRunner({
      tools: [read, write, deploy],
      permissions: { allow: ['write_*', 'deploy_*'], deny: ['deploy_*'] },
    });
    expect(await runner.processToolCalls([
      { name: 'write_thing', args: {} },
      { name: 'deploy_prod', args: {} },
      { name: 'read_thing', args: {} },
    ])).toEqual([
      { name: 'write_thing', result: 'written' },
      { name: 'deploy_prod', code: 'permission_denied', error: 'deploy_prod is denied by the permission rules' },
      { name: 'read_thing', result: 'read' },
    ]);
    const noAsk = new ToolRunner({ tools: [write], permissions: {} });
    await expect(noAsk.execute('write_thing', {})).rejects.toMatchObject({
      code: 'permission_denied',
      message: 'write_thing needs permission and no one can grant it: the permission rules neither allow it nor give an ask handler',
    });
  });

  it('asks for tools that are not read-only and honours allow_once, allow_session and deny', async () => {
    const asked: PermissionRequest[] = [];
    const answers: PermissionAnswer[] = ['deny', 'allow_once', 'allow_session'];
    const runner = new ToolRunner({
      tools: [read, write],
      permissions: { ask: async (request) => (asked.push(request), answers.shift() ?? 'deny') },
    });
    const outcomes: unknown[] = [];
    for (let i = 0; i < 4; i += 1) {
      const [r] = await runner.processToolCalls([{ id: `w${i}`, name: 'write_thing', args: { v: i } }], { conversationId: 'c1' });
      outcomes.push('result' in (r as object) ? 'ran' : (r as { code: string }).code);
    }
    expect(outcomes).toEqual(['permission_denied', 'ran', 'ran', 'ran']);
    // allow_session held for the 4th call: asked three times only; read-only tools never ask.
    await runner.execute('read_thing', {}, { conversationId: 'c1' });
    expect(asked.map((r) => [r.tool, r.callId, r.conversationId, r.readOnly, r.args])).toEqual([
      ['write_thing', 'w0', 'c1', false, { v: 0 }],
      ['write_thing', 'w1', 'c1', false, { v: 1 }],
      ['write_thing', 'w2', 'c1', false, { v: 2 }],
    ]);
    // The session grant is per conversation.
    await expect(runner.execute('write_thing', {}, { conversationId: 'c2' })).rejects.toMatchObject({ code: 'permission_denied', message: 'the user denied write_thing' });
  });

  it('treats a throwing permission prompt as a denial', async () => {
    const runner = new ToolRunner({ tools: [write], permissions: { ask: async () => { throw new Error('dialog closed'); } } });
    await expect(runner.execute('write_thing', {})).rejects.toMatchObject({ code: 'permission_denied', message: 'the permission prompt failed: dialog closed' });
  });

  it('changes the policy and plan mode of a live runner, for the calls that start afterwards', async () => {
    const runner = new ToolRunner({ tools: [read, write, deploy] });
    expect(await runner.execute('write_thing', {})).toBe('written');
    runner.setPlanMode(true);
    expect(runner.planMode).toBe(true);
    await expect(runner.execute('write_thing', {})).rejects.toMatchObject({ code: 'permission_denied', message: expect.stringContaining('plan mode is on') });
    expect(await runner.execute('read_thing', {})).toBe('read');
    runner.planMode = false;
    expect(() => runner.setPermissions('read_only' as never)).toThrow(
      new TypeError("setPermissions: policy 'read_only' is plan mode: pass planMode: true (or call setPlanMode(true)) instead, and leave policy out"),
    );
    expect(runner.permissions.policy).toBe('allow_all');
    runner.setPermissions({ allow: ['write_*'], deny: ['deploy_*'] });
    expect(await runner.execute('write_thing', {})).toBe('written');
    await expect(runner.execute('deploy_prod', {})).rejects.toMatchObject({ code: 'permission_denied', message: 'deploy_prod is denied by the permission rules' });
    expect(runner.denialTracker.count()).toBe(2);
    expect(() => runner.setPermissions('everything' as never)).toThrow(TypeError);
    expect(() => runner.setPlanMode('yes' as never)).toThrow(TypeError);
  });

  it('forgets allow_session answers when the policy is replaced', async () => {
    let asked = 0;
    const ask = async (): Promise<PermissionAnswer> => {
      asked += 1;
      return 'allow_session';
    };
    const runner = new ToolRunner({ tools: [write], permissions: { ask } });
    await runner.execute('write_thing', {});
    await runner.execute('write_thing', {});
    runner.setPermissions({ ask });
    await runner.execute('write_thing', {});
    expect(asked).toBe(2);
  });
});
