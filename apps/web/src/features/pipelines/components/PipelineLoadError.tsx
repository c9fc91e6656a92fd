import { Alert, Anchor } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/errors';

/** A pipeline that could not be loaded (gone, or not in this project), with the way back. */
export function PipelineLoadError({ error }: { error: unknown }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the pipeline">
      {errorMessage(error)}
      <Anchor component={Link} to="/pipelines" display="block" mt="xs">
        Back to pipelines
      </Anchor>
    </Alert>
  );
}
