export { API_BASE, ApiError, http, reactToFailure, request, unwrap, type RequestOptions } from './client.ts';
export { browser, feedback, setFeedback, type Feedback } from './feedback.ts';
export { dictItemsQuery, getDictItems, useDictItems } from './get-dict-items.ts';
export { queryClient } from './query-client.ts';
export { uploadFile, type UploadOptions, type UploadedFile } from './upload-file.ts';
