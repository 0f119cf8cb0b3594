// The pay-codes module's door (decision 0075): pay devices and the codes they draw (DESIGN 8).
export { employeePayDevicesRoutes, ownPayDevicesRoutes } from './pay-codes.routes';
export {
  forgetPayDevice,
  payCodeAt,
  payCodeStepAt,
  redeemPayCode,
  type PayCodePayee,
  type PayCodeStep,
} from './pay-codes.service';
