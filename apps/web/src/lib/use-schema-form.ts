import { zodResolver } from "@hookform/resolvers/zod";
import { type DefaultValues, type FieldValues, useForm } from "react-hook-form";
import type { z } from "zod";

/**
 * A react-hook-form form checked by a zod schema: the fields hold the schema's input (text as typed)
 * and a valid submit hands over its output (numbers parsed, defaults filled).
 */
export function useSchemaForm<TIn extends FieldValues, TOut extends FieldValues>(
  schema: z.ZodType<TOut, TIn>,
  defaultValues: DefaultValues<TIn>,
) {
  return useForm<TIn, unknown, TOut>({ resolver: zodResolver(schema), defaultValues });
}
