import { Alert, Anchor, Center, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { usePipeline } from '../api/get-pipeline';

/** /pipelines/:pipelineId/builds: the latest build's page, or the builds tab when there is none. */
export default function BuildRedirectPage() {
  const { pipelineId = '' } = useParams();
  const projectId = useCurrentProject()?.id ?? '';
  const pipeline = usePipeline(projectId, pipelineId);
  if (pipeline.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} title="Could not load the pipeline">
        {errorMessage(pipeline.error)}
        <Anchor component={Link} to="/pipelines" display="block" mt="xs">
          Back to pipelines
        </Anchor>
      </Alert>
    );
  }
  if (!pipeline.data) {
    return (
      <Center mih="40vh">
        <Loader />
      </Center>
    );
  }
  const latest = pipeline.data.latestBuild;
  return <Navigate to={latest ? `/pipelines/${pipelineId}/builds/${latest.id}` : `/pipelines/${pipelineId}/details?tab=builds`} replace />;
}
