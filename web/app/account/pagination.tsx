import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

/** The current query with `page=N` (none for the first page), so filters stay as they are. */
function pageSearchOf(current: URLSearchParams, page: number): string {
  const search = new URLSearchParams(current);
  if (page <= 1) search.delete('page');
  else search.set('page', String(page));
  return search.size > 0 ? `?${search.toString()}` : '';
}

/** Previous and next with where the reader is: "Page 2 of 5 · 93 in total". */
export function Pagination({ page, pages, total }: { page: number; pages: number; total: number }) {
  const { t } = useTranslation('account');
  const [searchParams] = useSearchParams();
  const pageSearch = (target: number) => pageSearchOf(searchParams, target);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {page > 1 ? (
        <Link
          className="button button--small"
          to={{ search: pageSearch(Math.min(page - 1, pages)) }}
          rel="prev"
        >
          {t('pagination.previous')}
        </Link>
      ) : (
        <span className="button button--small" aria-disabled="true">
          {t('pagination.previous')}
        </span>
      )}
      <p className="pagination__summary">{t('pagination.summary', { page, pages, total })}</p>
      {page < pages ? (
        <Link className="button button--small" to={{ search: pageSearch(page + 1) }} rel="next">
          {t('pagination.next')}
        </Link>
      ) : (
        <span className="button button--small" aria-disabled="true">
          {t('pagination.next')}
        </span>
      )}
    </nav>
  );
}
