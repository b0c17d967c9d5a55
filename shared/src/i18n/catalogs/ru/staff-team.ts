import type { staffTeam as en } from '../en/staff-team.ts';
import type { Messages } from '../../types.ts';

export const staffTeam: Messages<typeof en> = {
  placeholder: 'placeholder',
};
