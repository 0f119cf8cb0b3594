// The approvals module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { approvalPolicyRoutes, default as approvalsRoutes } from './approvals.routes';
export { expireApprovals, requestApprovalIfDue, setApprovalPolicyIn } from './approvals.service';
