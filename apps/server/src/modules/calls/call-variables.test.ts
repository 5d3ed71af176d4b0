import { AssistantFields } from "@parley/contract";
import { callSettingsOf } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { withVariables } from "./call-variables.ts";

const settings = () =>
  callSettingsOf({
    ...AssistantFields.parse({ name: "Reminders" }),
    system_prompt: "You call {{first_name}} about the appointment on {{ day }}.",
    first_speaker: "assistant",
    first_message: "Hello {{first_name}}, this is the clinic.",
  });

describe("call variables", () => {
  it("fills a campaign contact's values into the prompt and the first message", () => {
    const filled = withVariables(settings(), { first_name: "Ada", day: "Monday" });
    expect(filled.systemPrompt).toBe("You call Ada about the appointment on Monday.");
    expect(filled.firstMessage).toBe("Hello Ada, this is the clinic.");
  });

  it("leaves a placeholder without a value as written", () => {
    expect(withVariables(settings(), { day: "Monday" }).firstMessage).toBe("Hello {{first_name}}, this is the clinic.");
  });
});
