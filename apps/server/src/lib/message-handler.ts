/**
 * The handler of a route that does one thing and answers `{ message }` (deletes, assigns, unlinks):
 * `messageAfter("Function deleted.", (request) => deleteFunction(db, tenantOf(request), request.params.id))`.
 * The request type comes from the route's declared schema, as for an inline handler.
 */
export function messageAfter<R>(message: string, work: (request: R) => Promise<unknown>) {
  return async (request: R): Promise<{ message: string }> => {
    await work(request);
    return { message };
  };
}
