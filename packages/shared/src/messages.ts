import { TEXT_MAX } from './constants.ts';

/** The wording of every length limit: 'Username must be at most 30 characters'. */
export const tooLongMessage = (label: string, max: number) => `${label} must be at most ${max} characters`;
/** A body field the call does not take (a typo such as `pagesize`): named, never ignored. */
export const unknownFieldMessage = (keys: readonly string[]) =>
  `Received unknown field${keys.length > 1 ? 's' : ''} ${keys.map((key) => `'${key}'`).join(', ')}`;

/** Every user-facing message of spec §5 and §8, verbatim (misspellings included). */
export const MSG = {
  /** Not in the spec: what a call that never answers ends with (both client modes). */
  requestTimedOut: 'The server did not answer in time. Please try again.',
  // Login
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  passwordMin6: 'Password must be at least 6 characters',
  totpRequired: 'TOTP is required',
  invalidCharacters: 'Invalid characters used.',
  fixFormErrors: 'Please fix the form errors',
  // Registration
  usernameOnlyNumbers: 'Username cannot contain only numbers',
  sponsorRequired: 'Sponsor is required',
  checkSponsor: 'Please check your sponsor',
  failedValidateSponsor: 'Failed to validate sponsor',
  invalidSponsorLong: 'Invalid sponsor. Please check your sponsor or contact support.',
  otpRequired: 'OTP is required',
  /**
   * The registration rule (§5: 8+, an uppercase letter, a number, a special character) has no
   * message in the spec; this one names exactly the checklist's rules (no lowercase letter).
   */
  registrationPasswordCriteria:
    'Password must be at least 8 characters and include at least 1 uppercase letter, 1 number, and 1 special character',
  // Password reset
  resetPasswordCriteria:
    'Password must be at least 8 characters and include at least 1 lowercase letter, 1 uppercase letter, 1 number, and 1 special character',
  passwordsDoNotMatch: 'Passwords do not match',
  resetThrottle: 'You have recently used this function. Try again after 10 seconds.',
  // Deposit
  enterAmount: 'Enter Amount',
  validAmount: 'Please enter a valid amount',
  depositMin: 'Amount cannot be less than 10!',
  // Support
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
  subjectRequired: 'Subject is required',
  messageRequired: 'Message is required',
  messageMin: 'Message must be at least 10 characters',
  messageSent: 'Message sent!',
  // P2P
  insufficientBalance: 'Insufficient balance',
  transferCancelled: 'Transfer cancelled',
  recipientVerified: 'Recipient verified successfully!',
  recipientNotFound: 'Recipient not found',
  recipientNotFoundOrInvalid: 'Recipient not found or invalid',
  errorVerifyingRecipient: 'Error verifying recipient',
  transferSuccessful: 'Transfer successful!',
  transferFailed: 'Transfer failed',
  unexpectedTransferError: 'Unexpected error during transfer',
  // Withdrawal
  withdrawalMin: 'Amount should be greater then $20 ',
  setTransactionPassword: 'Set Transaction Password for Withdrawal Request',
  // Transaction password
  enterTransactionPassword: 'Enter Transaction Password',
  transactionPasswordCriteria:
    'Password must be at least 6 characters long, include at least one number and one special character.',
  enterOtp6: 'Enter OTP of 6 Digits',
  // Change password
  fillAllPasswordFields: 'Please fill in all password fields.',
  oldNewSame: 'Old password and New password cannot be same.',
  newConfirmMismatch: 'New password and confirm password do not match.',
  newPasswordCriteria: 'New password does not meet the required criteria.',
  enterOtp: 'Please enter the OTP.',
  newPasswordMin6: 'New password must be at least 6 characters.',
  // Email change
  enterCurrentEmail: 'Enter your Current Email',
  /** The client's own word for the same field: the form asks for the new address (the code goes there), so 'Current' would mislead. */
  enterNewEmail: 'Enter your New Email',
  // Wallet address
  enterWalletAddress: 'Enter Wallet Address',
  invalidWalletAddress: 'Invaid Wallet Address',
  tryAgainLater: 'Please try again later',
  // 2FA
  failedActivate2fa: 'Failed to activate 2FA',
  invalidVerificationCode: 'Invalid verification code',
  twoFaEnabled: '2FA enabled successfully',
  twoFaDisabled: '2FA disabled successfully',
  keyCopied: 'Key copied to clipboard',
  // Session (§8)
  sessionExpired: 'Session Expired',
  invalidAuthentication: 'Invalid Authentication',
  sessionExpiredLog: 'Session expired. Please log in again.',
  profileNotFound: 'User profile not found. Please log in again.',
  // Fallbacks (§8)
  loginFailed: 'Login failed',
  invalidResponse: 'Invalid response',
  failedCheckTotp: 'Failed to check TOTP status',
  registrationFailed: 'Registration failed',
  otpVerificationFailed: 'OTP verification failed',
  usernameCheckFailed: 'Username check failed',
  failedGetProfile: 'Failed to get profile',
  failedPurchase: 'Failed to purchase subscription',
  failedVerifyUser: 'Failed to verify user',
  passwordChangeFailed: 'Password change failed',
  failedCurrentRank: 'Failed to get current rank',
  noFromWallets: 'No data returned from from-wallets endpoint',
  failedFromWallets: 'Failed to fetch from-wallets',
  noToWallets: 'No data returned from to-wallets endpoint',
  failedToWallets: 'Failed to fetch to-wallets',
  failedWithdrawFees: 'Failed to calculate withdrawal fees',
  failedSendOtp: 'Failed to send OTP',
  failedVerifyTransactionPassword: 'Failed to verify transaction password',
  walletTransferFailed: 'Wallet transfer failed',
  failedTotalPages: 'Failed to fetch total pages',
  anErrorOccurred: 'An error occurred',
  failedGetOtp: 'Failed to get OTP',
  unexpectedError: 'An unexpected error occurred',
  failedLoadCountries: 'Failed to load countries',
  invalidSponsor: 'Invalid sponsor',
  failedLoadPackages: 'Failed to load packages',
  failedLoadRanks: 'Failed to load ranks',
  failedLoadCurrentRank: 'Failed to load current rank',
  errorFetchingData: (message: string) => `Error fetching data: ${message}`,
  loginToViewRanks: 'Please log in to view rank data',
  passwordChangeError: 'An error occurred while changing the password.',
  verificationFailed: 'Verification failed',
  somethingWentWrong: 'Something went wrong',
  qrMissing: 'QR code data is missing.',
  // Success toasts (§8)
  loginSuccessful: 'Login successful!',
  otpSent: 'OTP sent successfully',
  registrationSuccessful: 'Registration successful',
  copiedSuccessfully: 'Copied Successfully',
  copiedLink: (link: string) => `Copied "${link}"`,
  // Empty states
  noWalletData: 'No wallet data available',
  noActivity: 'No activity yet',
  // Timeline (§2)
  noActivities: 'No activities yet',
  activitiesAppearHere: 'Your account activities will appear here.',
  noNotifications: 'No notifications found.',
  noData: 'No data available',
  loading: 'Loading...',
  noOrgData: 'No organizational data available',
  notImplemented: 'Not implemented yet',
  // Length limits (the spec sets none): the forms and the server give the same words.
  usernameTooLong: tooLongMessage('Username', TEXT_MAX.username),
  sponsorTooLong: tooLongMessage('Sponsor', TEXT_MAX.username),
  nameTooLong: tooLongMessage('Name', TEXT_MAX.name),
  emailTooLong: tooLongMessage('Email', TEXT_MAX.email),
  countryTooLong: tooLongMessage('Country', TEXT_MAX.country),
  passwordTooLong: tooLongMessage('Password', TEXT_MAX.password),
  subjectTooLong: tooLongMessage('Subject', TEXT_MAX.supportSubject),
  messageTooLong: tooLongMessage('Message', TEXT_MAX.supportMessage),
  searchTooLong: tooLongMessage('Search text', TEXT_MAX.search),
  planTooLong: tooLongMessage('Plan', TEXT_MAX.plan),
} as const;
