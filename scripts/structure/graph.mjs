// Strongly connected groups of a directed graph (Tarjan): each group of two or more is a cycle.

/** `graph`: node → Map(next node → an example of the edge). Returns the groups, each sorted. */
export function cyclesOf(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** Adds the edge from → to with its example, keeping the first example seen. */
export function addEdge(graph, from, to, example) {
  if (!graph.has(from)) graph.set(from, new Map());
  const edges = graph.get(from);
  if (!edges.has(to)) edges.set(to, example);
}

/** One message per cycle: the members, then each edge inside the group with its example import. */
export function describeCycles(graph, what) {
  return cyclesOf(graph).map((group) => {
    const members = new Set(group);
    const edges = [];
    for (const from of group) {
      for (const [to, example] of graph.get(from) ?? [])
        if (members.has(to)) edges.push(`    ${from} → ${to}: ${example}`);
    }
    return `import cycle between ${what} ${group.join(", ")}:\n${edges.join("\n")}`;
  });
}
