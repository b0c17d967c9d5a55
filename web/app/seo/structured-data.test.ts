import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createRoutesStub, Meta } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { contentMeta } from '#app/components/content/content-meta.ts';

/*
 * The FAQ's structured data as the document head gets it: contentMeta's FAQPage through React
 * Router's <Meta>, which the root layout renders. An answer is page text and may hold anything;
 * `</script>` in it must not end the script (and let the rest run as HTML).
 */

const HOSTILE = 'Yes </script><script>alert(1)</script> & <!-- done';

function renderedHead(): string {
  const Stub = createRoutesStub([
    {
      id: 'root',
      path: '/',
      meta: () =>
        contentMeta({
          location: { pathname: '/products/car-purchase' },
          matches: [{ id: 'root', data: { publicEnv: { PUBLIC_SITE_URL: 'https://x.example' } } }],
          page: {
            metaTitle: 'Title',
            metaDescription: 'Description',
            faq: [{ q: 'Q </script>?', a: HOSTILE }],
          },
        }),
      Component: () => createElement(Meta),
    },
  ]);
  // React 18 warns that the stub router's layout effect cannot run on a server; it need not.
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    return renderToString(createElement(Stub, { initialEntries: ['/'] }));
  } finally {
    quiet.mockRestore();
  }
}

describe('FAQ structured data in the head', () => {
  it('writes one ld+json block that no text can close early, and reads back as written', () => {
    const html = renderedHead();
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    const json = blocks[0]![1]!;
    expect(json).not.toMatch(/[<>]/);
    expect(html.match(/<script/g)).toHaveLength(1);
    const data = JSON.parse(json) as {
      '@type': string;
      mainEntity: Array<{ name: string; acceptedAnswer: { text: string } }>;
    };
    expect(data['@type']).toBe('FAQPage');
    expect(data.mainEntity[0]!.name).toBe('Q </script>?');
    expect(data.mainEntity[0]!.acceptedAnswer.text).toBe(HOSTILE);
  });
});
