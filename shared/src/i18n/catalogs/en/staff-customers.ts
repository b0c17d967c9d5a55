/** The staff console's customers pages. */
export const staffCustomers = {
  placeholder: 'placeholder',
} as const;
