/**
 * `<option>`s of a flow `<select>`: copies of a template share a name, so a name that
 * appears more than once gets the end of its flow's id (` · …a1b2c3`) to tell them apart.
 */
export function FlowOptions({ flows }: { flows: readonly { id: string; name: string }[] }) {
  const dup = new Set(flows.filter((f, i) => flows.findIndex((g) => g.name === f.name) !== i).map((f) => f.name));
  return flows.map((f) => (
    <option key={f.id} value={f.id}>
      {f.name}
      {dup.has(f.name) ? ` · …${f.id.slice(-6)}` : ""}
    </option>
  ));
}
