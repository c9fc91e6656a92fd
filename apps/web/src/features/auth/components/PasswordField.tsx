import { Button, TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';

/** A password input with a Show/Hide text toggle (spec §2.2). */
export function PasswordField(props: TextInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      rightSectionWidth={64}
      rightSection={
        <Button variant="subtle" size="compact-xs" onClick={() => setVisible((v) => !v)} tabIndex={-1}>
          {visible ? 'Hide' : 'Show'}
        </Button>
      }
    />
  );
}
