/** What every staff console page shares (web/app/routes/admin, web/app/admin). */
export const staff = {
  actions: {
    back: 'Back',
    working: 'Working…',
    save: 'Save',
    edit: 'Edit',
    close: 'Close',
    apply: 'Apply',
    reset: 'Reset filters',
  },
  table: {
    empty: 'Nothing here yet.',
    noMatches: 'Nothing matches these filters.',
  },
  /** A section that could not be loaded: load it again. */
  retry: 'Try again',
  /** …or, where only a new page helps, reload the page. */
  reload: 'Reload',
  done: 'Done.',
  failed: 'It did not work: {{reason}}',
} as const;
