export { AmountField } from './AmountField';
export { AsOf, StaleLine } from './AsOf';
export { Button, IconButton } from './Button';
export { CardNumber } from './CardNumber';
export { CodeSearch } from './CodeSearch';
export { ConfirmDialog, Dialog } from './Dialog';
export { useDates } from './dates';
export { type Failure, FailureBoundary, retryableLazy } from './FailureBoundary';
export * from './icons';
export { LoadMore, usePages } from './LoadMore';
export { MoneyButton } from './MoneyButton';
export { HeaderLink, PageHeader } from './PageHeader';
export { Pager } from './Pager';
export { PasswordField } from './PasswordField';
export { Sparkline } from './Sparkline';
export {
  EmptyState,
  ErrorState,
  ListStates,
  LoadError,
  loadFailed,
  ObjectStates,
  Skeleton,
  SkeletonList,
} from './States';
export { StatusChip, type Tone } from './StatusChip';
export { Segmented, Tabs } from './Tabs';
export { FieldFrame, fieldDescribedBy, TextField } from './TextField';

export { default as ui } from './ui.module.css';
