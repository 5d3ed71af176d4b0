import {
  CreateFunctionBody,
  FUNCTION_DEFAULT_TIMEOUT_SECONDS,
  FUNCTION_EMPTY_PARAMETERS,
  type ToolFunction,
} from "@parley/contract";
import { z } from "zod";
import type { FunctionSaveBody } from "../../../api/functions.ts";
import { KeyValueRowList, recordToRows, rowsToRecord } from "../../../components/key-value-rows.tsx";
import { numberField } from "../../../components/number-field.ts";
import { checkParameters, prettyJson } from "./parameters-json.ts";

/**
 * The dialog's form: the contract's rules for every field it shares with the API, with the
 * parameters kept as editable JSON text and the headers as rows until they are sent. Header values
 * come back masked; sent back unchanged they keep the stored value, unless the URL moves to another
 * host (then the API asks for them again).
 */
export const FunctionForm = CreateFunctionBody.extend({
  parameters: z.string().refine((text) => checkParameters(text).ok),
  timeout: numberField(CreateFunctionBody.shape.timeout.unwrap()),
  headers: KeyValueRowList,
  secret: z.string().max(500),
  clearSecret: z.boolean(),
});
export type FunctionFormInput = z.input<typeof FunctionForm>;
export type FunctionFormOutput = z.output<typeof FunctionForm>;

export function formDefaults(fn: ToolFunction | null): FunctionFormInput {
  return {
    name: fn?.name ?? "",
    description: fn?.description ?? "",
    parameters: prettyJson(fn?.parameters ?? FUNCTION_EMPTY_PARAMETERS),
    url: fn?.url ?? "",
    method: fn?.method ?? "POST",
    timeout: fn?.timeout ?? FUNCTION_DEFAULT_TIMEOUT_SECONDS,
    headers: recordToRows(fn?.headers),
    secret: "",
    clearSecret: false,
  };
}

/** The request body: a blank secret is left out so an edit keeps the stored one; clearing it sends `null`. */
export function toBody(values: FunctionFormOutput): FunctionSaveBody {
  const check = checkParameters(values.parameters);
  const secret = values.clearSecret ? { secret: null } : values.secret ? { secret: values.secret } : {};
  return {
    name: values.name,
    description: values.description,
    parameters: check.ok ? check.schema : { ...FUNCTION_EMPTY_PARAMETERS },
    url: values.url,
    method: values.method,
    timeout: values.timeout,
    headers: rowsToRecord(values.headers),
    ...secret,
  };
}
