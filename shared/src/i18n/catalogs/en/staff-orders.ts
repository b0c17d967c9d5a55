/** The staff console's orders pages. */
export const staffOrders = {
  placeholder: 'placeholder',
} as const;
