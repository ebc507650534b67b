/** A configured model provider as the browser may see it: never the key, only a hint. */
export interface ProviderView {
  provider: string;
  baseUrl: string | null;
  model: string | null;
  hasKey: boolean;
  /** "…" and the key's last four characters, or null without a key. */
  keyHint: string | null;
  isDefault: boolean;
  updatedAt: string;
}
