import type { ModelMessage } from 'ai';

/** The `toolhost` entry of each tool's AI SDK `metadata` (copied onto its calls' `toolMetadata`). */
export interface ToolhostToolMetadata {
  readOnly: boolean;
  concurrencySafe: boolean;
}

/** What `aiSdkToolApproval`'s function reads of the AI SDK's approval event. */
export interface AiSdkApprovalEvent {
  toolCall: { toolName: string; toolCallId: string };
  /** The messages the step's model call was given (one array per step, shared by its calls). */
  messages: readonly ModelMessage[];
}
