import { routeGroups, type RouteGroup } from '../http/route-groups.js';
import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/admin.js';

/** How the resources of admin-records-resource.ts are shown (their views); their write side stays there. Imports no schema. */

/** What a route group's function is, from its declaration (the deployment's facts, not stored). */
function clusterFacts(record: Record<string, unknown>): Record<string, unknown> {
  const group = routeGroups[record.server_role as RouteGroup] as { description: string; ports?: readonly string[] } | undefined;
  const ports = group?.ports ?? [];
  return {
    server_category: 'lambda',
    description: group?.description ?? null,
    ports: [...ports],
    // Lambda scales by itself; there are no load balancers, instances or target groups.
    auto_scale_enabled: true,
    aws_elb_load_balancer_arn: null,
    aws_elb_target_group_arn: null,
    sidekiq_queues: ports.includes('events') ? ['events'] : [],
    events_sidekiq_queue: ports.includes('events') ? 'events' : null,
    cpu_15: null,
    td_ec2_instances_count: 0,
    td_ec2_instances_active_count: 0,
    aws_tg_targets_count: 0,
    anycable_hostnames: [],
  };
}

export const adminTasksView = defineView({
  name: routing.adminTasks.name,
  type: 'AdminTask',
  columns: [
    'active',
    'rails_model_name',
    'method_name',
    'sql_conditions',
    'status',
    'counter',
    'last_id',
    'company_id',
    'user_id',
    'target_company_ids',
    'limit_value',
    'slice_value',
    'business_hours_open',
    'business_hours_close',
    'time_zone',
    'with_solr_includes',
    'sql_includes',
    'method_arguments',
    'last_created_at',
  ],
});

export const applicationClustersView = defineView({
  name: routing.applicationClusters.name,
  type: 'ApplicationCluster',
  columns: [
    'company_id',
    'name',
    'auto_scale_enabled',
    'server_role',
    'server_category',
    'aws_elb_load_balancer_arn',
    'aws_elb_target_group_arn',
    'sidekiq_queues',
    'cpu_15',
    'td_ec2_instances_count',
    'events_sidekiq_queue',
    'anycable_hostnames',
    'server_role_icon',
    'server_role_background_color',
    'server_role_text_color',
    'aws_tg_targets_count',
    'td_ec2_instances_active_count',
    'description',
    'ports',
  ],
  derive: clusterFacts,
});

export const bigintMigrationsView = defineView({
  name: routing.bigintMigrations.name,
  type: 'BigintMigration',
  columns: [
    'company_id',
    'shard_key',
    'migrate_table_name',
    'migrate_column_name',
    'phase',
    'last_pk_text',
    'last_pk_value',
    'total_copied',
    'batch_size',
    'last_sql_ms',
    'slow_streak',
    'started_at',
    'succeeded_at',
    'failed_at',
    'error_message',
    'paused',
    'cleaned_up_at',
  ],
});
