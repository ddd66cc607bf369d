import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MAX_PICTURE_BYTES,
  MAX_PICTURES,
  PICTURE_TYPES,
  type AdminProduct,
} from '../../contracts/admin-catalogue';
import { pictureSources } from '../../contracts/product-pictures';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { orderPictures, removePicture, uploadPicture } from '../../lib/api/admin-catalogue';
import { changeFailure } from './catalogue-texts';
import { useMoveFocus } from './move-focus';
import { useOffline } from './staff-page';
import { useStaffAction } from './use-staff-action';

/**
 * A product's pictures: added one at a time (JPG, PNG or WebP, at most 5 MB, checked here
 * by type and size and again by the server by content), moved up or down with buttons,
 * removed. The first is the one the catalogue shows.
 */
export function ProductPictures({
  product,
  onChanged,
}: {
  product: AdminProduct;
  onChanged: (product: AdminProduct) => void;
}) {
  const { t } = useTranslation();
  const notify = useToast();
  const offline = useOffline();
  const action = useStaffAction();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const images = product.images;
  const full = images.length >= MAX_PICTURES;

  const refusal = (failure: Parameters<typeof changeFailure>[1]) => {
    const code = failure.kind === 'refused' ? failure.body?.details?.[0]?.code : undefined;
    if (code === 'pictureType' || code === 'pictureSize' || code === 'pictureLimit') {
      return t(`admin.catalogue.errors.${code}`);
    }
    return changeFailure(t, failure, t('admin.catalogue.pictures.failed'));
  };

  const upload = async (file: File) => {
    setError(null);
    // Said at once for what the browser can tell; the server checks the content itself.
    if (file.size > MAX_PICTURE_BYTES) return setError(t('admin.catalogue.errors.pictureSize'));
    if (file.type && !(PICTURE_TYPES as readonly string[]).includes(file.type)) {
      return setError(t('admin.catalogue.errors.pictureType'));
    }
    const result = await action.run(
      JSON.stringify(['picture', product.id, file.name, file.size, file.lastModified]),
      (key) => uploadPicture(product.id, file, key),
    );
    if (input.current) input.current.value = '';
    if (result.ok) {
      notify(t('admin.catalogue.pictures.uploaded'));
      onChanged(result.value.product);
    } else {
      setError(refusal(result.failure));
    }
  };

  const focusMoved = useMoveFocus(action.busy);
  const move = async (from: number, to: number) => {
    setError(null);
    const next = [...images];
    const [moved] = next.splice(from, 1);
    if (moved === undefined) return;
    next.splice(to, 0, moved);
    const result = await action.run(JSON.stringify(['order', product.id, next]), (key) =>
      orderPictures(product.id, next, key),
    );
    if (result.ok) {
      notify(t('admin.catalogue.pictures.moved'));
      onChanged(result.value.product);
      focusMoved(moved, to < from);
    } else {
      setError(refusal(result.failure));
    }
  };

  /** The picture asked about before it is removed: nothing brings a removed one back. */
  const [removing, setRemoving] = useState<{ image: string; n: number } | null>(null);
  const remove = async (image: string) => {
    setRemoving(null);
    setError(null);
    const result = await action.run(JSON.stringify(['remove', product.id, image]), (key) =>
      removePicture(product.id, image, key),
    );
    if (result.ok) {
      notify(t('admin.catalogue.pictures.removed'));
      onChanged(result.value.product);
    } else {
      setError(refusal(result.failure));
    }
  };

  const disabled = action.busy || offline;
  return (
    <section className="card" aria-labelledby="staff-pictures-title">
      <h2 id="staff-pictures-title">{t('admin.catalogue.pictures.title')}</h2>
      <p className="form-field__hint" id="staff-pictures-hint">
        {t('admin.catalogue.pictures.hint')}
      </p>
      {error && <Banner kind="error">{error}</Banner>}
      {images.length === 0 ? (
        <p>{t('admin.catalogue.pictures.empty')}</p>
      ) : (
        <ol className="staff-pictures">
          {images.map((image, i) => {
            const label = t('admin.catalogue.pictures.picture', { n: i + 1 });
            return (
              <li key={image} className="staff-pictures__item">
                <img
                  {...pictureSources(image, 160)}
                  sizes="120px"
                  alt={label}
                  width="120"
                  height="120"
                />
                <div className="staff-pictures__actions" role="group" aria-label={label}>
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    data-move={image}
                    disabled={disabled || i === 0}
                    onClick={() => void move(i, i - 1)}
                  >
                    {t('admin.catalogue.pictures.moveUp')}
                  </button>
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    data-move={image}
                    disabled={disabled || i === images.length - 1}
                    onClick={() => void move(i, i + 1)}
                  >
                    {t('admin.catalogue.pictures.moveDown')}
                  </button>
                  <button
                    type="button"
                    className="button button--small button--danger"
                    disabled={disabled}
                    onClick={() => setRemoving({ image, n: i + 1 })}
                  >
                    {t('admin.catalogue.pictures.remove')}
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('admin.catalogue.pictures.removeTitle', { n: removing?.n ?? 0 })}
        confirmLabel={t('admin.catalogue.pictures.remove')}
        cancelLabel={t('common.cancel')}
        danger
        busy={action.busy}
        onConfirm={() => {
          if (removing) void remove(removing.image);
        }}
        onCancel={() => setRemoving(null)}
      >
        <p>{t('admin.catalogue.pictures.removeText')}</p>
      </ConfirmDialog>
      {full ? (
        <p>{t('admin.catalogue.pictures.full')}</p>
      ) : (
        <div className="form-field">
          <label htmlFor="staff-picture-file">{t('admin.catalogue.pictures.upload')}</label>
          <input
            ref={input}
            id="staff-picture-file"
            type="file"
            accept={PICTURE_TYPES.join(',')}
            disabled={disabled}
            aria-describedby="staff-pictures-hint"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void upload(file);
            }}
          />
          {action.busy && (
            <p className="loading" role="status">
              <span className="spinner" aria-hidden="true" />
              {t('admin.catalogue.pictures.uploading')}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
