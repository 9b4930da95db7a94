import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from './Button';
import { IconEye, IconEyeOff, IconLock } from './icons';
import { TextField, type TextFieldProps } from './TextField';

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'end' | 'start'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      start={<IconLock size={18} />}
      end={
        <IconButton
          label={t(visible ? 'auth.hidePassword' : 'auth.showPassword')}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <IconEyeOff size={18} /> : <IconEye size={18} />}
        </IconButton>
      }
    />
  );
}
