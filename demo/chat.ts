// The chat panel: a real model (Gemini, OpenAI-compatible or Anthropic) drives the workspace's tools.
// The agent loop and the model client run here, on the page (fetch straight to the chosen endpoint);
// the tool calls go through the workspace's RemoteToolRunner to its worker, so they run against the
// workspace's files with the playground's permission mode (and its ask-mode dialog). The seam is
// `Agent.builder().toolHost(host)`: the agent declares `host.declarations()` and sends each turn's
// calls to `host.processToolCalls`.
import type { ToolCall, ToolCallResult } from 'toolhost';
import { Agent, anthropicModel, geminiModel, openAICompatibleModel, type AgentEvent, type AgentToolHost, type Model } from 'toolhost/agent';
import type { RemoteToolRunner } from 'toolhost/web';
import { byId, h, pretty } from './dom.js';

export type ChatProvider = 'gemini' | 'openai' | 'anthropic';

/** The tools the workspace worker hosts for each profile beyond toolhost's own (see demo/worker.ts). */
const PROFILE_TOOLS: Record<'anthropic' | 'openai', readonly string[]> = {
  anthropic: ['str_replace_based_edit_tool', 'bash'],
  openai: ['apply_patch', 'shell'],
};
/** Declared whatever the profile: the loop's `finish` and the playground's own tool. */
const ALWAYS = new Set(['finish', 'save_memory']);

/**
 * The tool profile the chat uses with `model`: the model's own where the workspace worker hosts it
 * (anthropic, openai, toolhost), else toolhost, with why.
 */
export function chatProfile(model: Model): { profile: 'anthropic' | 'openai' | 'toolhost'; note?: string } {
  const wanted = model.toolProfile ?? 'toolhost';
  if (wanted === 'gemini') return { profile: 'toolhost', note: "Gemini CLI's tool set shares names with toolhost's (grep_search, web_fetch), so this workspace's runner cannot host both" };
  return { profile: wanted };
}

/** The declarations of `profile` among the worker's (names as in PROFILE_TOOLS; toolhost: every other tool). */
export function profileDeclarations<T extends { name: string }>(declarations: readonly T[], profile: 'anthropic' | 'openai' | 'toolhost'): T[] {
  const others = new Set(Object.values(PROFILE_TOOLS).flat());
  return declarations.filter((d) =>
    ALWAYS.has(d.name) || (profile === 'toolhost' ? !others.has(d.name) : PROFILE_TOOLS[profile].includes(d.name)),
  );
}

export interface ProviderSettings {
  baseUrl: string;
  model: string;
  apiKey: string;
}

export interface ChatSettings {
  provider: ChatProvider;
  providers: Record<ChatProvider, ProviderSettings>;
}

/** What the chat needs from the playground page. */
export interface ChatContext {
  /** The open workspace's name and its runner (undefined while none is open). */
  connection(): { workspace: string; runner: RemoteToolRunner } | undefined;
  /** The playground's current conversation: the chat's tool calls use its tool state and history. */
  conversation(): string;
}

/** What tests and curious people can read: `playground.chat`. */
export interface ChatState {
  running: boolean;
  /** Every event of the runs in this tab, with the workspace and conversation it belongs to. */
  events: Array<{ workspace: string; conversation: string; event: AgentEvent }>;
}

const STORAGE_KEY = 'playground:chat:settings';

export const DEFAULTS: Record<ChatProvider, ProviderSettings> = {
  gemini: { baseUrl: 'https://generativelanguage.googleapis.com', model: 'gemini-2.5-flash', apiKey: '' },
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', apiKey: '' },
  anthropic: { baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5', apiKey: '' },
};

const SYSTEM = [
  'You are a careful coding agent working in a project that lives in a browser workspace (root /workspace).',
  'Use the tools to look at and change files; paths are relative to the workspace root.',
  'There is no shell and no web access here. When the task is done, call finish with a short summary.',
].join(' ');

/** Loads the settings from this origin's localStorage (defaults where missing or unreadable). */
export function loadSettings(): ChatSettings {
  const settings: ChatSettings = { provider: 'gemini', providers: structuredClone(DEFAULTS) };
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<ChatSettings> | null;
    if (saved && (saved.provider === 'gemini' || saved.provider === 'openai' || saved.provider === 'anthropic')) settings.provider = saved.provider;
    for (const provider of Object.keys(DEFAULTS) as ChatProvider[]) {
      const own = saved?.providers?.[provider];
      if (own) {
        for (const key of ['baseUrl', 'model', 'apiKey'] as const) if (typeof own[key] === 'string') settings.providers[provider][key] = own[key];
      }
    }
  } catch {
    // Unreadable settings: start from the defaults.
  }
  return settings;
}

function saveSettings(settings: ChatSettings): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
}

/** The model client for `settings`: requests go to its base URL only, with its key. */
export function createModel(provider: ChatProvider, settings: ProviderSettings): Model {
  const base = { model: settings.model, baseUrl: settings.baseUrl };
  if (provider === 'gemini') return geminiModel({ ...base, apiKey: settings.apiKey });
  if (provider === 'anthropic') {
    return anthropicModel({ ...base, apiKey: settings.apiKey, headers: { 'anthropic-dangerous-direct-browser-access': 'true' } });
  }
  return settings.apiKey ? openAICompatibleModel({ ...base, apiKey: settings.apiKey }) : openAICompatibleModel(base);
}

/** A reason the settings cannot be used, or undefined. */
function settingsProblem(provider: ChatProvider, settings: ProviderSettings): string | undefined {
  let url: URL;
  try {
    url = new URL(settings.baseUrl);
  } catch {
    return 'The base URL is not a URL (e.g. https://generativelanguage.googleapis.com).';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The base URL must start with https:// or http://.';
  if (!settings.model.trim()) return 'Name a model.';
  if (provider !== 'openai' && !settings.apiKey) return `${provider === 'gemini' ? 'Gemini' : 'Anthropic'} needs an API key.`;
  return undefined;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the base URL';
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Sets up the chat panel (elements in index.html) and returns its controls. */
export function setupChat(ctx: ChatContext): {
  state: ChatState;
  show(): void;
  stop(): void;
  noteAsk(request: { tool: string; conversationId: string }): void;
  /** Conversations of the open workspace with chat messages in this tab. */
  conversations(): string[];
} {
  const state: ChatState = { running: false, events: [] };
  const settings = loadSettings();
  const provider = byId<HTMLSelectElement>('chat-provider');
  const baseUrl = byId<HTMLInputElement>('chat-base-url');
  const model = byId<HTMLInputElement>('chat-model');
  const apiKey = byId<HTMLInputElement>('chat-key');
  const keyNote = byId('chat-key-note');
  const log = byId('chat-log');
  const input = byId<HTMLTextAreaElement>('chat-input');
  const send = byId<HTMLButtonElement>('chat-send');
  const stopButton = byId<HTMLButtonElement>('chat-stop');
  const status = byId('chat-status');
  const profileNote = byId('chat-profile');

  // One agent per workspace (its history per conversation); one transcript per workspace and conversation.
  const agents = new Map<string, Agent>();
  const transcripts = new Map<string, HTMLElement>();
  let running: { controller: AbortController; workspace: string } | undefined;
  let current: Model | undefined;

  const fillForm = (): void => {
    const own = settings.providers[settings.provider];
    provider.value = settings.provider;
    baseUrl.value = own.baseUrl;
    model.value = own.model;
    apiKey.value = own.apiKey;
    renderKeyNote();
  };
  const readForm = (): void => {
    settings.provider = provider.value as ChatProvider;
    settings.providers[settings.provider] = { baseUrl: baseUrl.value.trim(), model: model.value.trim(), apiKey: apiKey.value.trim() };
  };
  const renderProfile = (): void => {
    const own = settings.providers[provider.value as ChatProvider] ?? { baseUrl: baseUrl.value, model: model.value, apiKey: '' };
    let chosen: ReturnType<typeof chatProfile>;
    try {
      chosen = chatProfile(createModel(provider.value as ChatProvider, { ...own, baseUrl: baseUrl.value.trim() || own.baseUrl }));
    } catch {
      chosen = { profile: 'toolhost' };
    }
    const tools = chosen.profile === 'toolhost' ? 'view_file, edit_file, grep_search, run_command, web_fetch, ...' : PROFILE_TOOLS[chosen.profile].join(', ');
    profileNote.dataset.profile = chosen.profile;
    profileNote.textContent = `Tool profile: ${chosen.profile} (${tools}, finish)${chosen.note ? `: ${chosen.note}` : ''}.`;
  };
  const renderKeyNote = (): void => {
    renderProfile();
    keyNote.textContent =
      `The settings and the key are kept in this browser’s localStorage for ${location.origin} only (no other site can read them), ` +
      `and the key is sent only to ${originOf(baseUrl.value)}, the endpoint above: the model requests go straight from this page, with no server in between.`;
  };

  provider.addEventListener('change', () => {
    settings.provider = provider.value as ChatProvider;
    fillForm();
    saveSettings(settings);
  });
  for (const field of [baseUrl, model, apiKey]) {
    field.addEventListener('change', () => {
      readForm();
      saveSettings(settings);
      renderKeyNote();
    });
  }
  baseUrl.addEventListener('input', renderKeyNote);
  byId('chat-forget').addEventListener('click', () => {
    for (const own of Object.values(settings.providers)) own.apiKey = '';
    apiKey.value = '';
    saveSettings(settings);
    status.textContent = 'The API keys were removed from this browser.';
  });

  const key = (): string | undefined => {
    const open = ctx.connection();
    return open ? `${open.workspace}\u0000${ctx.conversation()}` : undefined;
  };
  const transcript = (workspace: string, conversation: string): HTMLElement => {
    const id = `${workspace}\u0000${conversation}`;
    let element = transcripts.get(id);
    if (!element) {
      element = h('div', { class: 'chat-transcript', 'data-workspace': workspace, 'data-conversation': conversation });
      transcripts.set(id, element);
    }
    return element;
  };

  const agentFor = (workspace: string): Agent => {
    let agent = agents.get(workspace);
    if (agent) return agent;
    // The tools are the workspace worker's: whatever connection to it is open when the call is made.
    const runner = (): RemoteToolRunner => {
      const open = ctx.connection();
      if (!open || open.workspace !== workspace) throw Object.assign(new Error(`workspace “${workspace}” is not open`), { code: 'unavailable' });
      return open.runner;
    };
    const host: AgentToolHost = {
      // The model's own tool profile, from the worker's tools.
      declarations: async () => profileDeclarations(await runner().declarations(), current ? chatProfile(current).profile : 'toolhost'),
      processToolCalls: (calls, options) => runner().processToolCalls(calls, options),
    };
    // The model is read at each request: the one the run started with.
    const proxy: Model = {
      provider: 'playground',
      model: 'chosen in the chat panel',
      generate: (request) => {
        if (!current) throw new Error('no model chosen');
        return current.generate(request);
      },
    };
    agent = Agent.builder().model(proxy).toolHost(host).system(SYSTEM).maxTurns(30).build();
    agents.set(workspace, agent);
    return agent;
  };

  const setRunning = (on: boolean): void => {
    state.running = on;
    send.disabled = on;
    stopButton.disabled = !on;
    log.setAttribute('aria-busy', String(on));
  };

  // ------------------------------------------------------------------------------------------------
  // Rendering events
  // ------------------------------------------------------------------------------------------------

  const entry = (kind: string, attrs: Record<string, string>, ...children: Array<Node | string | null>): HTMLElement =>
    h('div', { class: `chat-entry ${kind}`, 'data-kind': kind, ...attrs }, ...children);

  const calls = new Map<string, HTMLElement>();
  const render = (into: HTMLElement, event: AgentEvent): void => {
    switch (event.type) {
      case 'text':
        into.append(entry('text', {}, h('span', { class: 'who' }, 'Model'), h('p', { class: 'chat-text' }, event.text)));
        break;
      case 'tool_call': {
        const call: ToolCall = event.call;
        const item = entry(
          'tool_call',
          { 'data-tool': call.name, 'data-call-id': call.id ?? '', 'data-status': 'running' },
          h(
            'details',
            {},
            h('summary', {}, h('span', { class: 'who' }, 'Tool call'), ' ', h('code', {}, call.name), ' ', h('span', { class: 'args-preview' }, clip(JSON.stringify(call.args ?? {}), 90)), ' ', h('span', { class: 'call-status' }, 'running…')),
            h('pre', { class: 'json', 'aria-label': `Arguments of ${call.name}` }, pretty(call.args)),
          ),
        );
        if (call.id) calls.set(call.id, item);
        into.append(item);
        break;
      }
      case 'tool_result': {
        const result: ToolCallResult = event.result;
        const failed = 'error' in result;
        const item = (result.id && calls.get(result.id)) || into.appendChild(entry('tool_call', { 'data-tool': result.name }, h('details', {}, h('summary', {}, h('code', {}, result.name)))));
        item.dataset.status = failed ? 'error' : 'ok';
        if (failed) item.dataset.code = result.code;
        const badge = failed ? h('strong', { class: 'code-badge' }, result.code) : h('span', { class: 'ok-badge' }, 'ok');
        item.querySelector('.call-status')?.replaceWith(badge);
        const body = item.querySelector('details');
        if (failed) body?.append(h('p', { class: 'error-message' }, result.error));
        body?.append(
          h('details', { class: 'chat-result' }, h('summary', {}, 'Result (JSON)'), h('pre', { class: 'json' }, pretty(failed ? { code: result.code, error: result.error } : result.result))),
        );
        break;
      }
      case 'permission_request':
        into.append(entry('permission', {}, `Asking permission for ${event.request.tool}…`));
        break;
      case 'finish':
        into.append(entry('finish', {}, h('span', { class: 'who' }, 'Finished'), h('p', { class: 'chat-text' }, event.result ?? '')));
        break;
      case 'error':
        into.append(
          entry(
            'error',
            { 'data-code': event.error.code, role: 'alert' },
            h('span', { class: 'who' }, 'Error'),
            ' ',
            h('strong', { class: 'code-badge' }, event.error.code),
            event.error.status !== undefined ? h('span', { class: 'time' }, ` HTTP ${event.error.status}`) : null,
            h('p', { class: 'error-message' }, event.error.message),
          ),
        );
        break;
      case 'done': {
        const why: Record<string, string> = {
          finished: 'the model called finish',
          no_tool_calls: 'the model answered without a tool call',
          max_turns: 'the turn limit was reached',
          cancelled: 'stopped',
          error: 'an error ended it',
        };
        into.append(entry('done', { 'data-reason': event.reason }, `Run ended: ${why[event.reason] ?? event.reason} (${event.turns} model ${event.turns === 1 ? 'request' : 'requests'}).`));
        break;
      }
    }
    // Follow the newest entry inside the log only (scrollIntoView would scroll the page too).
    if (into.isConnected) log.scrollTop = log.scrollHeight;
  };

  // ------------------------------------------------------------------------------------------------
  // Sending and stopping
  // ------------------------------------------------------------------------------------------------

  const run = async (): Promise<void> => {
    const open = ctx.connection();
    const prompt = input.value.trim();
    if (!open || running || !prompt) return;
    readForm();
    saveSettings(settings);
    const chosen = settings.providers[settings.provider];
    const problem = settingsProblem(settings.provider, chosen);
    if (problem) {
      status.textContent = problem;
      return;
    }
    current = createModel(settings.provider, chosen);
    const workspace = open.workspace;
    const conversation = ctx.conversation();
    const into = transcript(workspace, conversation);
    const controller = new AbortController();
    running = { controller, workspace };
    setRunning(true);
    status.textContent = `Running with ${model.value} at ${originOf(chosen.baseUrl)}…`;
    input.value = '';
    into.append(entry('user', {}, h('span', { class: 'who' }, 'You'), h('p', { class: 'chat-text' }, prompt)));
    try {
      for await (const event of agentFor(workspace).run(prompt, { conversationId: conversation, signal: controller.signal })) {
        state.events.push({ workspace, conversation, event });
        render(into, event);
      }
      status.textContent = '';
    } finally {
      running = undefined;
      setRunning(false);
    }
  };

  byId('chat-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void run().catch((error: unknown) => {
      status.textContent = `The chat failed: ${(error as Error).message}`;
    });
  });
  input.addEventListener('keydown', (event) => {
    // Enter sends, Shift+Enter is a new line.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      byId<HTMLFormElement>('chat-form').requestSubmit();
    }
  });
  const stop = (): void => running?.controller.abort();
  stopButton.addEventListener('click', stop);
  byId('chat-clear').addEventListener('click', () => {
    const open = ctx.connection();
    if (!open || running) return;
    agents.get(open.workspace)?.clearHistory(ctx.conversation());
    transcript(open.workspace, ctx.conversation()).replaceChildren();
    status.textContent = 'The model’s history of this conversation was cleared (files and tool state are kept).';
  });

  const show = (): void => {
    // A run on another workspace cannot go on: that workspace's connection was closed.
    const open = ctx.connection();
    if (running && running.workspace !== open?.workspace) running.controller.abort();
    const id = key();
    const [workspace, conversation] = id ? id.split('\u0000') : [];
    log.replaceChildren(workspace !== undefined && conversation !== undefined ? transcript(workspace, conversation) : '');
    byId('chat-where').textContent = open ? `Workspace “${open.workspace}”, conversation ${ctx.conversation()}.` : '';
  };

  fillForm();
  setRunning(false);
  return {
    state,
    show,
    stop,
    conversations() {
      const open = ctx.connection();
      if (!open) return [];
      const prefix = `${open.workspace}\u0000`;
      return [...transcripts].filter(([id, element]) => id.startsWith(prefix) && element.childElementCount > 0).map(([id]) => id.slice(prefix.length));
    },
    noteAsk(request) {
      const open = ctx.connection();
      if (!running || !open || request.conversationId !== ctx.conversation()) return;
      render(transcript(open.workspace, request.conversationId), { type: 'permission_request', request: { tool: request.tool } as never });
    },
  };
}
