/** Placeholder until the page lands. */
export default function Page() {
  return <main id="main" className="container section" />;
}
