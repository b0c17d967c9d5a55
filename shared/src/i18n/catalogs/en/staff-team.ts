/** The staff console's team pages. */
export const staffTeam = {
  placeholder: 'placeholder',
} as const;
