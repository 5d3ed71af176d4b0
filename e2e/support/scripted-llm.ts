import { type ChatModel, startChatModel } from "./chat-model.ts";

export type ScriptedLlm = ChatModel;

/**
 * A local model server (support/chat-model.ts) answering each request with the next scripted
 * reply, and with the last one once the script has run out.
 */
export function startScriptedLlm(replies: string[]): Promise<ScriptedLlm> {
  let turn = 0;
  return startChatModel(() => {
    const reply = replies[Math.min(turn, replies.length - 1)] ?? "";
    turn += 1;
    return reply;
  });
}
