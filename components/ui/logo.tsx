/**
 * The Phylactery mark (the same drawing as the favicon, app/icon.svg): a vessel holding a
 * small flow of three connected nodes, on the accent colour of the current theme.
 * Decorative: the brand text next to it names the app.
 */
export function Logo({ size = 22 }: { /** Width and height, px. */ size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" focusable="false" className="icon">
      <rect width="32" height="32" rx="7" fill="var(--accent)" />
      <g fill="none" stroke="var(--on-accent)" strokeLinejoin="round" strokeLinecap="round">
        <path strokeWidth="2" d="M16 4.5 26 10.25v11.5L16 27.5 6 21.75v-11.5z" />
        <path strokeWidth="1.6" d="M16 11.5 11.5 19.5M16 11.5l4.5 8M11.5 19.5h9" />
      </g>
      <g fill="var(--on-accent)">
        <circle cx="16" cy="11.5" r="2.3" />
        <circle cx="11.5" cy="19.5" r="2.3" />
        <circle cx="20.5" cy="19.5" r="2.3" />
      </g>
    </svg>
  );
}
