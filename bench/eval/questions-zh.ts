// Chinese questions over the Chinese documents. Each line: id, category, question, where the
// answer is, and the answer-bearing text that must appear there (checked by labels.ts).
import { answered, unanswered } from './question-builders.ts';
import type { EvalQuestion } from './types.ts';

const LOAN = 'zh-startup-loan.pdf';
const JOBS = 'zh-employment-measures.pdf';
const REPORT = 'zh-subsidy-report.pdf';
const EV = 'zh-ev-subsidy.pdf';
const CONTEST = 'zh-startup-contest.pdf';

const at = (file: string, ...pages: number[]) => ({ file, pages });
const q = answered.bind(null, 'zh');
const none = unanswered.bind(null, 'zh');

// One question per line, a table to review: prettier would spread each over eight lines.
// prettier-ignore
export const ZH_QUESTIONS: readonly EvalQuestion[] = [
  // exact: codes, amounts, names and dates typed as in the text
  q('zh-exact-01', 'exact', '青人社发〔2024〕12号是哪几个部门联合印发的？', at(LOAN, 1), ['青人社发〔2024〕12号', '中国人民银行青禾市分行']),
  q('zh-exact-02', 'exact', '统一编号QHAC00-2024-0001对应的是哪份文件？', at(LOAN, 1), ['QHAC00-2024-0001', '青禾市创业担保贷款实施办法']),
  q('zh-exact-03', 'exact', '47.9亿元就业补助资金中，中央财政资金有多少？', at(REPORT, 1), ['47.9亿元', '中央财政资金31.2亿元']),
  q('zh-exact-04', 'exact', '追回违规资金1268万元是怎么回事？', at(REPORT, 4), ['追回违规资金1268万元']),
  q('zh-exact-05', 'exact', '每辆一次性补贴5000元适用于哪类车辆？', at(EV, 1), ['纯电动乘用车的，每辆一次性补贴5000元']),
  q('zh-exact-06', 'exact', 'QHDR01-2024-0007是哪两个部门印发的？', at(EV, 1), ['QHDR01-2024-0007', '青禾市商务局', '青禾市财政局']),
  q('zh-exact-07', 'exact', '陈思远是哪个单位的负责人？', at(REPORT, 4), ['青川省财政厅社会保障处', '负责人：陈思远']),
  q('zh-exact-08', 'exact', '联系人李晓岚在哪个科室？', at(LOAN, 4), ['创业指导科，联系人李晓岚']),
  q('zh-exact-09', 'exact', '王建国是哪个处室的联系人？', at(JOBS, 4), ['就业促进处负责统筹协调，联系人王建国']),
  q('zh-exact-10', 'exact', '城镇调查失业率4.8%是哪一年的数据？', at(REPORT, 3), ['城镇调查失业率为4.8%']),
  q('zh-exact-11', 'exact', '每招用1人1500元的一次性扩岗补助发给哪些企业？', at(JOBS, 1), ['每招用1人1500元', '一次性扩岗补助']),
  q('zh-exact-12', 'exact', '2024年5月1日至2025年12月31日失业保险总费率按多少执行？', at(JOBS, 1), ['2024年5月1日至2025年12月31日', '失业保险总费率继续按1%执行']),
  q('zh-exact-13', 'exact', '规模2.6亿元的担保基金由哪家公司运营？', at(LOAN, 3), ['2.6亿元', '青禾市融资担保有限公司']),
  q('zh-exact-14', 'exact', '青人社发〔2019〕31号文件现在还有效吗？', at(LOAN, 4), ['青人社发〔2019〕31号）同时废止']),
  q('zh-exact-15', 'exact', '城镇新增就业86.5万人完成了年度目标的多少？', at(REPORT, 3), ['城镇新增就业86.5万人，完成年度目标的108%']),
  q('zh-exact-16', 'exact', '奖金5万元的一等奖有几个名额？', at(CONTEST, 2), ['一等奖1名，奖金5万元']),
  q('zh-exact-17', 'exact', '青人社函〔2024〕56号通知的报名时间是什么时候？', at(CONTEST, 1), ['青人社函〔2024〕56号', '报名时间为2024年4月1日至4月30日']),
  q('zh-exact-18', 'exact', '创业担保贷款贴息支出3.6亿元带动发放了多少贷款？', at(REPORT, 2), ['创业担保贷款贴息支出3.6亿元，带动发放创业担保贷款126亿元']),

  // keyword: rare terms
  q('zh-keyword-01', 'keyword', '什么情况下可以免除反担保？', at(LOAN, 3), ['10万元及以下创业担保贷款的，免除反担保要求']),
  q('zh-keyword-02', 'keyword', '担保基金代偿率超过多少会暂停业务？', at(LOAN, 4), ['担保基金代偿率超过5%的，暂停新增贷款业务']),
  q('zh-keyword-03', 'keyword', '以工代训补贴的标准是多少？', at(JOBS, 3), ['每人每月500元的标准给予最长6个月的以工代训补贴']),
  q('zh-keyword-04', 'keyword', '技能培训券的面值最高是多少？', at(JOBS, 3), ['每张培训券面值最高3000元']),
  q('zh-keyword-05', 'keyword', '“免申即享”是怎么操作的？', at(JOBS, 4), ['免申即享', '系统自动比对、直接发放']),
  q('zh-keyword-06', 'keyword', '“直补快办”改革后办理时长缩短到多少？', at(REPORT, 3), ['直补快办', '缩短至5个工作日']),
  q('zh-keyword-07', 'keyword', '增程式汽车能拿多少补贴？', at(EV, 1), ['插电式混合动力（含增程式）乘用车的，每辆补贴3000元']),
  q('zh-keyword-08', 'keyword', '因素法分配资金时各项因素的权重是多少？', at(REPORT, 1), ['资金分配采用因素法', '40%、35%和25%']),
  q('zh-keyword-09', 'keyword', '见习期满留用率达标的单位，见习补贴提高到多少？', at(JOBS, 2), ['留用率达到50%以上的，见习补贴提高到当地最低工资标准的80%']),
  q('zh-keyword-10', 'keyword', '担保费按多少比例收取，由谁承担？', at(LOAN, 3), ['按照贷款额度的1%收取担保费，该费用由财政全额承担']),
  q('zh-keyword-11', 'keyword', '报废旧车后再买新能源车，补贴能多多少？', at(EV, 1), ['报废或者转出本人名下旧车', '每辆再增加2000元']),
  q('zh-keyword-12', 'keyword', '获奖项目入驻创业孵化基地，场租怎么减免？', at(CONTEST, 2), ['免收2年场租']),
  q('zh-keyword-13', 'keyword', '经办银行多长时间内作出放贷决定？', at(LOAN, 3), ['15个工作日内作出放贷决定']),
  q('zh-keyword-14', 'keyword', '年末结余率超过20%的地区会受到什么处理？', at(REPORT, 4), ['对结余率超过20%的地区相应扣减下一年度资金']),

  // paraphrase: the same meaning in other words
  q('zh-paraphrase-01', 'paraphrase', '自己开店想找政府做担保借钱，一个人最多能借多少？', at(LOAN, 2), ['个人创业担保贷款最高额度为30万元']),
  q('zh-paraphrase-02', 'paraphrase', '几个朋友合伙做生意，加起来一共能借到多少？', at(LOAN, 2), ['贷款总额不超过150万元']),
  q('zh-paraphrase-03', 'paraphrase', '小公司通过这个渠道最多能融到多少钱？', at(LOAN, 2), ['小微企业创业担保贷款最高额度为400万元']),
  q('zh-paraphrase-04', 'paraphrase', '个人借的这笔钱最晚几年内要还清？', at(LOAN, 2), ['个人创业担保贷款期限最长不超过3年']),
  q('zh-paraphrase-05', 'paraphrase', '刚毕业的大学生到单位实习，单位能从政府拿到什么钱？', at(JOBS, 2), ['按当地最低工资标准的70%给予见习补贴']),
  q('zh-paraphrase-06', 'paraphrase', '贫困户去外省打工，路费能报销多少？', at(JOBS, 2), ['最高500元的一次性交通补贴']),
  q('zh-paraphrase-07', 'paraphrase', '工人考下技术等级证，政府发多少奖励？', at(JOBS, 3), ['初级工1000元、中级工1500元、高级工2000元']),
  q('zh-paraphrase-08', 'paraphrase', '公司没有裁人，交过的保险费能退回来多少？', at(JOBS, 1), ['中小微企业按上年度实际缴纳失业保险费的60%返还']),
  q('zh-paraphrase-09', 'paraphrase', '那一年全省用在帮助老百姓找工作上的钱一共有多少？', at(REPORT, 1), ['共下达就业补助资金47.9亿元']),
  q('zh-paraphrase-10', 'paraphrase', '查出来有人弄虚作假领钱，后来收回了多少？', at(REPORT, 4), ['追回违规资金1268万元']),
  q('zh-paraphrase-11', 'paraphrase', '买了电车以后最晚多少天内要去领钱？', at(EV, 2), ['自购车发票开具之日起90日内提出申请']),
  q('zh-paraphrase-12', 'paraphrase', '买车的补助最后打到谁的卡上？', at(EV, 2), ['直接拨付至申请人本人银行账户']),
  q('zh-paraphrase-13', 'paraphrase', '很便宜的车能不能领补助？', at(EV, 1), ['低于8万元的不予补贴']),
  q('zh-paraphrase-14', 'paraphrase', '买车时拿假发票去领钱会被怎么处罚？', at(EV, 3), ['申请人5年内不得享受本市各类消费补贴']),
  q('zh-paraphrase-15', 'paraphrase', '比赛拿第一名能得多少钱？', at(CONTEST, 2), ['一等奖1名，奖金5万元']),
  q('zh-paraphrase-16', 'paraphrase', '去年没工作的人里面有多少重新上岗了？', at(REPORT, 3), ['失业人员再就业21.3万人']),

  // plain: ordinary questions that share words with their passage
  q('zh-plain-01', 'plain', '个人创业担保贷款的最高额度是多少？', at(LOAN, 2), ['个人创业担保贷款最高额度为30万元']),
  q('zh-plain-02', 'plain', '哪些人员可以申请个人创业担保贷款？', at(LOAN, 1), ['城镇登记失业人员', '毕业5年内的高校毕业生']),
  q('zh-plain-03', 'plain', '小微企业申请创业担保贷款需要新招用多少人员？', at(LOAN, 1), ['达到在职职工人数15%']),
  q('zh-plain-04', 'plain', '个人创业担保贷款的利率上限是多少？', at(LOAN, 2), ['个人创业担保贷款利率上限为贷款发放时同期贷款市场报价利率（LPR）加50个基点']),
  q('zh-plain-05', 'plain', '申请个人创业担保贷款需要提交哪些材料？', at(LOAN, 3), ['居民身份证', '创业计划书']),
  q('zh-plain-06', 'plain', '就业服务机构多长时间内完成创业担保贷款的资格审核？', at(LOAN, 3), ['10个工作日内完成资格审核']),
  q('zh-plain-07', 'plain', '贴息资金由市、区两级财政按什么比例分担？', at(LOAN, 2), ['按照5:5比例分担']),
  q('zh-plain-08', 'plain', '2024年全市募集多少个就业见习岗位？', at(JOBS, 2), ['就业见习岗位不少于6000个']),
  q('zh-plain-09', 'plain', '公益性岗位主要安置哪些人员？', at(JOBS, 2), ['大龄、残疾、零就业家庭人员']),
  q('zh-plain-10', 'plain', '市级财政2024年安排了多少就业专项资金？', at(JOBS, 4), ['安排就业专项资金3.2亿元']),
  q('zh-plain-11', 'plain', '稳就业若干措施的执行期到什么时候？', at(JOBS, 4), ['执行期至2025年12月31日']),
  q('zh-plain-12', 'plain', '职业培训补贴支出了多少资金？', at(REPORT, 2), ['职业培训补贴支出12.4亿元']),
  q('zh-plain-13', 'plain', '公益性岗位补贴安置了多少就业困难人员？', at(REPORT, 2), ['公益性岗位补贴支出7.3亿元，安置就业困难人员4.1万人']),
  q('zh-plain-14', 'plain', '新能源汽车消费补贴的资金总额是多少？', at(EV, 2), ['补贴资金总额为1.5亿元']),
  q('zh-plain-15', 'plain', '新能源汽车消费补贴通过什么渠道申请？', at(EV, 2), ['“汽车消费补贴”专区提交申请']),
  q('zh-plain-16', 'plain', '创业大赛的参赛对象是哪些人？', at(CONTEST, 1), ['在青禾市创办企业不满3年的创业者']),
  q('zh-plain-17', 'plain', '创业大赛的决赛在哪里举行？', at(CONTEST, 1), ['决赛于7月在青禾市创业孵化基地举行']),
  q('zh-plain-18', 'plain', '每位消费者可以享受几次新能源汽车补贴？', at(EV, 1), ['每位消费者限享受1次补贴']),
  q('zh-plain-19', 'plain', '新能源汽车消费补贴政策执行到什么时候？', at(EV, 1, 3), ['2024年6月1日', '2024年12月31日']),

  // no_answer: nothing in the corpus answers; several share its vocabulary on purpose
  none('zh-none-01', '创业担保贷款的申请人年龄上限是多少？', ['年龄上限', '周岁']),
  none('zh-none-02', '2024年青禾市的月最低工资标准是多少元？', ['月最低工资', '最低工资标准为']),
  none('zh-none-03', '购买新能源货车有没有补贴？', ['货车']),
  none('zh-none-04', '青禾市住房公积金贷款最高额度是多少？', ['公积金']),
  none('zh-none-05', '失业保险金每个月能领多少钱？', ['失业保险金']),
  none('zh-none-06', '创业担保贷款逾期的罚息怎么计算？', ['罚息', '逾期还款']),
  none('zh-none-07', '2023年全省养老保险基金收入是多少？', ['养老保险']),
  none('zh-none-08', '申请见习补贴需要提交哪些材料？', ['申请见习补贴', '见习补贴申请']),
  none('zh-none-09', '安装新能源汽车充电桩有补贴吗？', ['充电桩']),
  none('zh-none-10', '创业大赛的评审专家有哪些人？', ['评审专家', '评委']),
  none('zh-none-11', '职工医疗保险的报销比例是多少？', ['医疗保险', '报销比例']),
  none('zh-none-12', '青禾市人才公寓怎么申请？', ['人才公寓']),
  none('zh-none-13', '技能提升补贴可以委托他人代领吗？', ['代领', '委托']),
  none('zh-none-14', '电动自行车以旧换新补贴多少钱？', ['电动自行车']),
];
