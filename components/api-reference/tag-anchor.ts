/** The in-page anchor of a tag's section: "API keys" -> "tag-api-keys". */
export function tagAnchor(tag: string): string {
  return `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}
