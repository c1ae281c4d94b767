/** What a file id of the service looks like: anything else never reaches a URL or a file name. */
export const FILE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The most a picture may be, as the service documents it (15 MB): for uploads, downloads and what the chat draws. */
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;

/** The picture types the service takes as attachments (JPEG, PNG, TIFF, BMP), as it documents them. */
export const IMAGE_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/tiff', 'image/bmp'] as const;
