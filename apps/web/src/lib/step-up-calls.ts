/**
 * What the step-up dialog asks the server (components/step-up-dialog.tsx), made by the transport
 * that opens it (lib/transport.ts) and handed to it: the dialog imports no API client, which
 * would import the transport, which loads the dialog (an import cycle).
 */
export interface StepUpCalls {
  /** Whether the user signs in with a second factor: then the proof is its code. */
  hasSecondFactor(): Promise<boolean>;
  /** POST /iam/reauthenticate; rejects with the refusal's ApiError. */
  reauthenticate(proof: { code: string } | { password: string }): Promise<void>;
}
