/**
 * A section's title as an h2 under the screen's h1 (telegram-ui's own section header is an h1,
 * which leaves a screen with several top-level headings), styled as telegram-ui styles its own.
 */
export function SectionHeading({ children }: { children: string }) {
  return <h2 className="section-heading">{children}</h2>;
}
